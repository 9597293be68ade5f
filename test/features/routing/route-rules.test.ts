import { describe, expect, it } from 'vitest';

import { UserFacingError } from '../../../src/base/errors.js';
import {
  describeRules,
  hasRule,
  readRuleScope,
  withoutRule,
  withRule,
} from '../../../src/features/routing/route-rules.js';
import { emptyGuildSettings, MAX_RULES } from '../../../src/store/guild-settings.js';

const empty = emptyGuildSettings('g');

describe('readRuleScope', () => {
  it('reads the options of /feed set|off|clear', () => {
    expect(readRuleScope({ event: 'all', server: ' 123 ', caseType: null })).toEqual({ server: '123' });
    expect(readRuleScope({ event: 'case.created', server: null, caseType: 'Ban' })).toEqual({
      event: 'case.created',
      caseType: 'ban',
    });
    expect(readRuleScope({ event: 'modcall', server: '', caseType: '' })).toEqual({ event: 'modcall' });
  });

  it.each([
    [{ event: 'all', server: null, caseType: null }, 'A rule for all events needs a server or a case type'],
    [{ event: 'modcall', server: 'abc', caseType: null }, 'digits only'],
    [{ event: 'modcall', server: null, caseType: 'ban' }, 'case events only'],
    [{ event: 'case.voided', server: null, caseType: 'two words' }, 'like `warn` or `ban`'],
  ])('refuses %o with a clear message', (options, message) => {
    expect(() => readRuleScope(options)).toThrow(UserFacingError);
    expect(() => readRuleScope(options)).toThrow(message);
  });
});

describe('withRule and withoutRule', () => {
  it('keeps a rule by event alone where /feed set always kept it, with its /feed mention ping', () => {
    const set = withRule({ ...empty, mentions: { modcall: 'mods' } }, { event: 'modcall' }, 'calls');
    expect(set).toMatchObject({ routes: { modcall: 'calls' }, mentions: { modcall: 'mods' }, rules: [] });
    const off = withRule(set, { event: 'modcall' }, null);
    expect(off.routes).toEqual({ modcall: null });
    expect(hasRule(off, { event: 'modcall' })).toBe(true);
    const cleared = withoutRule(off, { event: 'modcall' });
    expect(cleared).toMatchObject({ routes: {}, mentions: { modcall: 'mods' } });
    expect(hasRule(cleared, { event: 'modcall' })).toBe(false);
  });

  it('replaces the rule of the same scope, keeping its ping unless told otherwise', () => {
    const scope = { server: '123', event: 'modcall' };
    const first = withRule(empty, scope, 'a', 'role');
    const moved = withRule(first, scope, 'b');
    expect(moved.rules).toEqual([{ server: '123', event: 'modcall', channelId: 'b', mentionRoleId: 'role' }]);
    expect(withRule(moved, scope, 'b', null).rules).toEqual([{ server: '123', event: 'modcall', channelId: 'b' }]);
    expect(withoutRule(moved, { server: '123' }).rules).toHaveLength(1);
    expect(withoutRule(moved, scope).rules).toEqual([]);
  });

  it(`refuses a rule past ${MAX_RULES}, and still replaces an existing one`, () => {
    let settings = empty;
    for (let server = 1; server <= MAX_RULES; server += 1) settings = withRule(settings, { server: `${server}` }, 'x');
    expect(() => withRule(settings, { server: '999' }, 'x')).toThrow(`${MAX_RULES} rules`);
    expect(withRule(settings, { server: '1' }, null).rules[0]).toEqual({ server: '1', channelId: null });
  });
});

describe('describeRules', () => {
  it('lists rules most specific first, then each event left to the default channel, with pings', () => {
    const settings = {
      ...empty,
      defaultChannelId: 'general',
      routes: { 'case.created': 'cases' },
      mentions: { modcall: 'mods' },
      rules: [
        { event: 'case.created', caseType: 'ban', channelId: 'bans' },
        { server: '456', event: 'modcall', channelId: null },
        { server: '123', channelId: 'server-a', mentionRoleId: 'leads' },
      ],
    };
    expect(describeRules(settings)).toEqual([
      '• server 456 · modcall → off (muted: counted in /status, not posted) · pings <@&mods>',
      '• server 123 · all events → <#server-a> · pings <@&leads>',
      '• case.created · case type ban → <#bans>',
      '• case.created → <#cases>',
      '• case.voided → <#general> (default)',
      '• session.started → <#general> (default)',
      '• session.ended → <#general> (default)',
      '• modcall → <#general> (default) · pings <@&mods>',
      '• shift.started → <#general> (default)',
      '• shift.ended → <#general> (default)',
    ]);
  });
});
