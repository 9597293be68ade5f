import { expect, it } from 'vitest';

import { DEFAULT_RULES } from '../../../../src/features/conduct/rules.js';
import { conductModule } from '../../../../src/features/conduct/store/conduct-module.js';
import type { Store } from '../../../../src/store/store.js';
import { describeOnEngines } from '../../../properties/play-community.js';
import {
  caseCreated,
  deliver,
  MINUTE,
  MODERATOR,
  OTHER_MODERATOR,
  recordAndJudge,
  shiftEvent,
} from './conduct-scene.js';

/*
 * Each rule judged as of the case's own moment when deliveries come late: what a late delivery shows changes the
 * finding it bears on (withdrawn, grown, merged), never adds a second one.
 */

const T = Date.UTC(2026, 4, 4, 20);

async function watched(store: Store, guildId: string, soleStaff = false) {
  const conduct = store.of(conductModule);
  await conduct.setChannel(guildId, '300000000000000009');
  if (soleStaff)
    await conduct.setRules(guildId, { ...DEFAULT_RULES, 'sole-staff': { ...DEFAULT_RULES['sole-staff'], on: true } });
  return async () =>
    (await conduct.findingsOf(guildId, 100))
      .map((finding) => ({ rule: finding.rule, state: finding.state, cases: finding.hits.map((hit) => hit.number) }))
      .sort((a, b) =>
        `${a.rule} ${a.state} ${a.cases[0] ?? 0}`.localeCompare(`${b.rule} ${b.state} ${b.cases[0] ?? 0}`),
      );
}

describeOnEngines('the conduct guard with late deliveries', (engine) => {
  it('withdraws an off-shift finding when the shift that covered the case comes late', async () => {
    const store = engine.store();
    const guildId = engine.nextGuild();
    const findings = await watched(store, guildId);
    // Bo is on shift (the server uses shifts); Ann warns a player with no shift told yet.
    await deliver(store, guildId, [
      shiftEvent(1, OTHER_MODERATOR, T - 60 * MINUTE),
      caseCreated(7, T, { type: 'warn' }),
    ]);
    await recordAndJudge(store, () => T);
    expect(await findings()).toEqual([{ rule: 'off-shift', state: 'open', cases: [7] }]);
    // Ann's shift, begun before the case, arrives after it.
    await deliver(store, guildId, [shiftEvent(2, MODERATOR, T - 10 * MINUTE)]);
    await recordAndJudge(store, () => T);
    expect(await findings()).toEqual([{ rule: 'off-shift', state: 'withdrawn', cases: [] }]);
  });

  it('grows a burst with a late ban inside it, and merges two bursts a late ban joins', async () => {
    const store = engine.store();
    const guildId = engine.nextGuild();
    const findings = await watched(store, guildId);
    const onShift = shiftEvent(1, MODERATOR, T - 60 * MINUTE);
    // Two bursts of five bans, 15 minutes apart: two findings.
    const first = [1, 2, 3, 4, 5].map((n) => caseCreated(n, T + (n - 1) * MINUTE));
    const second = [11, 12, 13, 14, 15].map((n) => caseCreated(n, T + 19 * MINUTE + (n - 11) * MINUTE));
    await deliver(store, guildId, [onShift, ...first, ...second]);
    await recordAndJudge(store, () => T);
    expect(await findings()).toEqual([
      { rule: 'bans', state: 'open', cases: [1, 2, 3, 4, 5] },
      { rule: 'bans', state: 'open', cases: [11, 12, 13, 14, 15] },
    ]);
    // A ban made between them, delivered last: within 10 minutes of both, so one incident of eleven bans.
    await deliver(store, guildId, [caseCreated(9, T + 11 * MINUTE)]);
    await recordAndJudge(store, () => T);
    expect(await findings()).toEqual([
      { rule: 'bans', state: 'merged', cases: [] },
      { rule: 'bans', state: 'open', cases: [1, 2, 3, 4, 5, 9, 11, 12, 13, 14, 15] },
    ]);
  });

  it('finds a case against staff when the target’s first shift comes after the case, and withdraws the only-staff ban when another shift comes', async () => {
    const store = engine.store();
    const guildId = engine.nextGuild();
    const findings = await watched(store, guildId, true);
    const bo = { robloxId: `7${OTHER_MODERATOR.discordId.slice(-2)}`, name: 'Bo' };
    await deliver(store, guildId, [shiftEvent(1, MODERATOR, T - 30 * MINUTE), caseCreated(3, T, { target: bo })]);
    await recordAndJudge(store, () => T);
    expect(await findings()).toEqual([{ rule: 'sole-staff', state: 'open', cases: [3] }]);
    // Bo's shift, begun before the ban, comes late: Bo clocked in as staff, and Ann was not alone.
    await deliver(store, guildId, [shiftEvent(2, OTHER_MODERATOR, T - 20 * MINUTE)]);
    await recordAndJudge(store, () => T);
    expect(await findings()).toEqual([
      { rule: 'sole-staff', state: 'withdrawn', cases: [] },
      { rule: 'staff-target', state: 'open', cases: [3] },
    ]);
  });
});
