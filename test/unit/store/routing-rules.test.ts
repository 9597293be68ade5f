import { describe, expect, it } from 'vitest';

import { emptyGuildSettings, type GuildSettings } from '../../../src/store/guild-settings.js';
import { resolveRoute, rulesOf, specificityOf } from '../../../src/store/routing-rules.js';

const settings = (change: Partial<GuildSettings>): GuildSettings => ({ ...emptyGuildSettings('g'), ...change });

describe('resolveRoute', () => {
  const rules = settings({
    defaultChannelId: 'default',
    routes: { 'case.created': 'cases', modcall: null },
    mentions: { 'case.created': 'mods' },
    rules: [
      { caseType: 'kick', channelId: 'kicks' },
      { event: 'case.created', caseType: 'ban', channelId: 'bans', mentionRoleId: 'admins' },
      { server: '123', channelId: 'server-a' },
      { server: '123', caseType: 'ban', channelId: 'server-a-bans' },
      { server: '123', event: 'case.created', channelId: 'server-a-cases' },
      { server: '123', event: 'case.created', caseType: 'warn', channelId: 'server-a-warns' },
    ],
  });

  it('takes the most specific matching rule: server, then event, then case type', () => {
    const where = (event: string, server?: string, caseType?: string) => {
      const route = resolveRoute(rules, { event, server, caseType });
      return route === 'muted' || route === null ? route : route.channelId;
    };
    expect(where('case.created', '123', 'warn')).toBe('server-a-warns');
    expect(where('case.created', '123', 'ban')).toBe('server-a-cases');
    expect(where('case.voided', '123', 'ban')).toBe('server-a-bans');
    expect(where('shift.started', '123')).toBe('server-a');
    expect(where('case.created', '456', 'ban')).toBe('bans');
    expect(where('case.created', '456', 'warn')).toBe('cases');
    expect(where('case.voided', '456', 'kick')).toBe('kicks');
    expect(where('case.voided', '456', 'warn')).toBe('default');
    // An event turned off is muted, unless a more specific rule sends it somewhere.
    expect(where('modcall', '456')).toBe('muted');
    expect(where('modcall', '123')).toBe('server-a');
    // A delivery stored before rules could name a server matches only rules that name none.
    expect(where('case.created', undefined, undefined)).toBe('cases');
  });

  it("pings the winning rule's role, else the event's", () => {
    expect(resolveRoute(rules, { event: 'case.created', server: '9', caseType: 'ban' })).toEqual({
      channelId: 'bans',
      mentionRoleId: 'admins',
    });
    expect(resolveRoute(rules, { event: 'case.created', server: '123', caseType: 'ban' })).toEqual({
      channelId: 'server-a-cases',
      mentionRoleId: 'mods',
    });
  });

  it('leaves a delivery unrouted when neither a rule nor the default names a channel', () => {
    expect(
      resolveRoute(settings({ rules: [{ server: '1', channelId: 'x' }] }), { event: 'modcall', server: '2' }),
    ).toBe(null);
  });

  it('lists the rules, event rules included, most specific first', () => {
    expect(rulesOf(rules).map(specificityOf)).toEqual([7, 6, 5, 4, 3, 2, 2, 1]);
  });
});
