import { describe, expect, it } from 'vitest';

import { renderConductAlert } from '../../../src/features/conduct/render-conduct-alert.js';
import { DEFAULT_RULES, type RuleName } from '../../../src/features/conduct/rules.js';
import type { Finding, FindingState, Hit } from '../../../src/features/conduct/store/conduct-store.js';

const AT = Date.UTC(2026, 10, 20, 12);
const MODERATOR = '500000000000000001';
const ROLE = '700000000000000001';

function finding(rule: RuleName, state: FindingState, hits: Hit[], subject = MODERATOR): Finding {
  return {
    guildId: '100000000000000001',
    id: `f-${rule}`,
    rule,
    subject,
    openedAt: AT,
    hits,
    state,
    mergedInto: state === 'merged' ? 'f-other' : null,
    actedBy: state === 'acknowledged' || state === 'dismissed' ? '500000000000000002' : null,
    actedAt: state === 'acknowledged' || state === 'dismissed' ? AT + 60_000 : null,
    version: 1,
    syncedVersion: 1,
    syncFailures: 0,
    message: null,
  };
}

const hit = (number: number, extra: Partial<Hit> = {}): Hit => ({
  server: '4821337',
  number,
  at: AT + number * 1_000,
  ...extra,
});
const describeOf = (alert: ReturnType<typeof renderConductAlert>) => alert.embeds[0]?.description ?? '';
const titleOf = (alert: ReturnType<typeof renderConductAlert>) => alert.embeds[0]?.title ?? '';

describe('a conduct alert', () => {
  it('names each rule in its title, with the burst thresholds the server set', () => {
    const one = [hit(1, { type: 'ban' })];
    const two = [hit(1, { type: 'ban' }), hit(2, { type: 'ban' })];
    const none = new Map<string, string>();
    expect(titleOf(renderConductAlert(finding('off-shift', 'open', one), DEFAULT_RULES, ROLE, none))).toBe(
      'Conduct: 1 case by a moderator not on shift',
    );
    expect(titleOf(renderConductAlert(finding('bans', 'open', two), DEFAULT_RULES, ROLE, none))).toBe(
      `Conduct: 2 bans or kicks by one moderator (burst: ${DEFAULT_RULES.bans.count} within ${DEFAULT_RULES.bans.minutes} min)`,
    );
    expect(titleOf(renderConductAlert(finding('voids', 'open', two), DEFAULT_RULES, ROLE, none))).toContain(
      'Conduct: 2 voids by one member',
    );
    expect(titleOf(renderConductAlert(finding('staff-target', 'open', two, '9001'), DEFAULT_RULES, ROLE, none))).toBe(
      'Conduct: 2 cases against a member who clocked in as staff',
    );
    expect(titleOf(renderConductAlert(finding('sole-staff', 'open', one), DEFAULT_RULES, ROLE, none))).toBe(
      'Conduct: a ban while its moderator was the only staff on shift',
    );
    expect(titleOf(renderConductAlert(finding('sole-staff', 'open', two), DEFAULT_RULES, ROLE, none))).toBe(
      'Conduct: 2 bans while its moderator was the only staff on shift',
    );
  });

  it('pings the role only while open, and says who answered, or why it ended, without buttons once ended', () => {
    const hits = [hit(1)];
    const none = new Map<string, string>();
    const open = renderConductAlert(finding('off-shift', 'open', hits), DEFAULT_RULES, ROLE, none);
    expect(open.content).toBe(`<@&${ROLE}>`);
    expect(open.allowed_mentions).toEqual({ parse: [], roles: [ROLE] });
    expect(open.components).toHaveLength(1);
    const noRole = renderConductAlert(finding('off-shift', 'open', hits), DEFAULT_RULES, null, none);
    expect(noRole.content).toBe('');
    expect(noRole.allowed_mentions).toEqual({ parse: [] });

    const acknowledged = renderConductAlert(finding('off-shift', 'acknowledged', hits), DEFAULT_RULES, ROLE, none);
    expect(acknowledged.content).toBe('');
    expect(describeOf(acknowledged)).toContain('**Acknowledged** by <@500000000000000002>');
    const dismissed = renderConductAlert(finding('off-shift', 'dismissed', hits), DEFAULT_RULES, ROLE, none);
    expect(describeOf(dismissed)).toContain('**Dismissed** by <@500000000000000002>');

    const withdrawn = renderConductAlert(finding('off-shift', 'withdrawn', hits), DEFAULT_RULES, ROLE, none);
    expect(titleOf(withdrawn)).toMatch(/^Ended: /);
    expect(describeOf(withdrawn)).toContain('**Withdrawn**');
    expect(withdrawn.components).toEqual([]);
    const merged = renderConductAlert(finding('bans', 'merged', hits), DEFAULT_RULES, ROLE, none);
    expect(describeOf(merged)).toContain('**Merged** into the alert `f-other`');
    expect(merged.components).toEqual([]);
  });

  it('lists at most 20 cases, each linked to its card where there is one, names shown as written', () => {
    const hits = Array.from({ length: 23 }, (_, n) =>
      hit(n + 1, n === 0 ? { type: 'ban', targetName: 'Bob_*the*_<b>' } : { server: n === 1 ? '' : '4821337' }),
    );
    const links = new Map([['4821337:1', 'https://discord.com/channels/1/2/3']]);
    const text = describeOf(
      renderConductAlert(finding('staff-target', 'open', hits, '9001'), DEFAULT_RULES, ROLE, links),
    );
    expect(text).toContain('Target (Roblox id): 9001');
    expect(text).toContain('ban of Bob\\_\\*the\\*\\_\\<b\\>, [#1 (4821337)](https://discord.com/channels/1/2/3)');
    expect(text).toContain('case, #2\n');
    expect(text).toContain('… and 3 more.');
    expect(text.match(/^• /gm)).toHaveLength(20);
    const voider = describeOf(
      renderConductAlert(finding('voids', 'open', [hit(1)], 'not-an-id'), DEFAULT_RULES, ROLE, links),
    );
    expect(voider).toContain('Voided by: not-an-id');
  });
});
