import { describe, expect, it } from 'vitest';

import { describeHealth, describeIncident } from '../../../src/features/health/describe-health.js';
import { describeHeld } from '../../../src/features/health/describe-held.js';
import type { Incident, IncidentType } from '../../../src/features/health/incidents.js';
import { renderAlert } from '../../../src/features/health/render-alert.js';
import { SILENCE_TEST_EVERY_MS, silenceTestDue } from '../../../src/features/health/silence.js';

const HOUR = 60 * 60 * 1000;

function incident(type: IncidentType, changes: Partial<Incident> = {}): Incident {
  return {
    guildId: 'g1',
    type,
    subject: type === 'held' ? '' : 'hook-1',
    label: type === 'channel' ? '<#123>' : '`wh_1`',
    openedAt: 0,
    updatedAt: 60_000,
    count: 5,
    escalated: false,
    detail: 'signature mismatch',
    actions: [],
    resolvedAt: null,
    message: null,
    ...changes,
  };
}

const buttonsOf = (type: IncidentType, changes: Partial<Incident> = {}) =>
  renderAlert(incident(type, changes), 'r1').components.flatMap((row) =>
    row.components.map((button) => ('label' in button ? button.label : undefined)),
  );

describe('an alert', () => {
  it('names the streak, the limit of 20 and how many are left, and turns red when escalated', () => {
    const warning = renderAlert(incident('refusals'), 'r1');
    expect(warning.content).toBe('<@&r1>');
    expect(warning.allowed_mentions).toEqual({ parse: [], roles: ['r1'] });
    expect(warning.embeds[0]?.description).toContain('**5 in a row**');
    expect(warning.embeds[0]?.description).toContain('15 more and it is off');
    const escalated = renderAlert(incident('refusals', { count: 20, escalated: true }), null);
    expect(escalated.content).toBe('');
    expect(escalated.allowed_mentions).toEqual({ parse: [] });
    expect(escalated.embeds[0]?.color).toBe(0xed4245);
    expect(escalated.embeds[0]?.description).toContain('it is most likely off now');
  });

  it('allows exactly the mention it makes: the role while open, nobody once resolved', () => {
    const resolved = renderAlert(incident('refusals', { resolvedAt: Date.now() }), 'r1');
    expect(resolved.content).toBe('');
    expect(resolved.allowed_mentions).toEqual({ parse: [] });
  });

  it('carries the buttons each kind of incident needs, and none once resolved', () => {
    expect(buttonsOf('refusals')).toEqual(['Send test', 'Re-enable']);
    expect(buttonsOf('intake-errors')).toEqual(['Send test', 'Re-enable']);
    expect(buttonsOf('silence')).toEqual(['Re-enable', 'Send test']);
    expect(buttonsOf('channel')).toEqual(['Show held']);
    expect(buttonsOf('held')).toEqual(['Show held']);
    const resolved = renderAlert(incident('channel', { resolvedAt: 42 * 60_000, actions: ['a', 'b', 'c', 'd'] }), 'r1');
    expect(resolved.components).toEqual([]);
    expect(resolved.content).toBe('');
    expect(resolved.embeds[0]?.title).toBe('Resolved: Discord refuses the feed channel <#123>');
    expect(resolved.embeds[0]?.description).toMatch(/^\*\*Resolved after 42 min\*\*/);
    // The last three actions are kept on the alert.
    expect(resolved.embeds[0]?.description).toMatch(/\nb\nc\nd$/);
  });

  it('says how many staff are on shift against the minimum, red while nobody is, with no buttons', () => {
    const short = incident('coverage', {
      subject: '',
      label: 'minimum 3',
      count: 1,
      detail:
        '**1 of 3** staff on shift while a session runs (Patrol), short since <t:0:R>; /duty minimum allows 10 min.',
    });
    const alert = renderAlert(short, 'r1');
    expect(alert.content).toBe('<@&r1>');
    expect(alert.embeds[0]?.title).toBe('Not enough staff on shift: 1 (minimum 3)');
    expect(alert.embeds[0]?.description).toMatch(/^\*\*1 of 3\*\* staff on shift while a session runs \(Patrol\)/);
    expect(alert.embeds[0]?.description).toContain(
      'Ask staff to start a shift, or change the minimum with /duty minimum',
    );
    expect(alert.embeds[0]?.color).toBe(0xffbf00);
    expect(alert.components).toEqual([]);
    expect(renderAlert({ ...short, count: 0, escalated: true }, 'r1').embeds[0]?.color).toBe(0xed4245);
    const resolved = renderAlert({ ...short, resolvedAt: 25 * 60_000 }, 'r1');
    expect(resolved.content).toBe('');
    expect(resolved.embeds[0]?.title).toBe('Resolved: Not enough staff on shift: 1 (minimum 3)');
    expect(describeIncident(short)).toBe(
      'a running session is short of staff: 1 on shift (minimum 3), alerted <t:0:R>',
    );
  });

  it('says what each kind is about in /alerts show and /status', () => {
    expect(describeIncident(incident('refusals'))).toMatch(/^webhook `wh_1`: 5 deliveries refused in a row/);
    expect(describeIncident(incident('intake-errors'))).toMatch(/this bot failed to store/);
    expect(describeIncident(incident('silence'))).toMatch(/no deliveries and no test ping/);
    expect(describeIncident(incident('channel', { detail: 'Discord answers 403' }))).toMatch(/^<#123>: Discord/);
    expect(describeIncident(incident('held', { count: 3, detail: '3 refused by Discord' }))).toMatch(/^3 held: /);
    const settings = { guildId: 'g1', channelId: 'c1', roleId: 'r1', silenceHours: 12 };
    expect(describeHealth(settings, [], undefined)).toEqual(['Health alerts: <#c1>, pinging <@&r1>.']);
    expect(
      describeHealth(undefined, [incident('silence')], { guildId: 'g1', downSince: 0, backAt: 1, lines: ['x'] }),
    ).toEqual([
      'Health alerts: off (/alerts set turns them on).',
      'Open incidents (1):',
      expect.stringMatching(/^• webhook/),
      expect.stringMatching(/^After the bot's downtime/),
      '• x',
    ]);
  });

  it('counts held entries by why they are held', () => {
    const status = {
      waiting: 0,
      unrouted: { modcall: 2, 'case.created': 0 },
      muted: { modcall: 4 },
      heldBroken: 1,
      heldRefused: 3,
      broken: [],
      retrying: [],
    };
    expect(describeHeld(status)).toEqual({
      count: 6,
      detail:
        '3 refused by Discord; 1 for a channel Discord refuses; 2 with no channel set (modcall ×2: /feed set or /feed default)',
    });
  });
});

describe('silence', () => {
  it('tests a webhook silent for the silence time, then at most every 30 minutes', () => {
    expect(silenceTestDue(0, 11 * HOUR, 12 * HOUR, undefined)).toBe(false);
    expect(silenceTestDue(0, 12 * HOUR, 12 * HOUR, undefined)).toBe(true);
    expect(silenceTestDue(0, 13 * HOUR, 12 * HOUR, { updatedAt: 13 * HOUR - 60_000 })).toBe(false);
    expect(silenceTestDue(0, 13 * HOUR, 12 * HOUR, { updatedAt: 13 * HOUR - SILENCE_TEST_EVERY_MS })).toBe(true);
  });
});
