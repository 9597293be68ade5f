import fc from 'fast-check';
import { expect, it } from 'vitest';

import { RUNTIME_TIMERS } from '../../../../src/base/timers.js';
import { ConductGuard } from '../../../../src/features/conduct/conduct-guard.js';
import { dueOf } from '../../../../src/features/conduct/feature.js';
import { DEFAULT_RULES } from '../../../../src/features/conduct/rules.js';
import { conductModule } from '../../../../src/features/conduct/store/conduct-module.js';
import { staffMomentsOf } from '../../../../src/features/record/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import type { Store } from '../../../../src/store/store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import {
  MINUTE,
  PLAYERS,
  scheduleArb,
  SERVERS,
  STAFF,
  type CaseFact,
  type Community,
  type ShiftFact,
  type Step,
} from '../../../properties/community-events.js';
import { assertProperty, describeOnEngines } from '../../../properties/play-community.js';
import { describeIncident, modelIncidents, type ModelRules } from './conduct-model.js';

/*
 * The conduct guard's incidents do not depend on the order, lateness or repetition of its deliveries: a community's
 * cases (some voided) and shifts (some never ended), delivered shuffled and repeated (a case before the shift that
 * covered it, a void before its case, an end before its start), the record's writer and the guard's passes anywhere
 * between; at a few moments, and at the end, the guard's open incidents are exactly the plain model's
 * (conduct-model.ts) of what the bot was told so far: the same rule, subject and cases each.
 */

const FROM = Date.UTC(2026, 4, 4, 18);
/** Three hours: dense enough for bursts, off-shift cases and the only staff on shift. */
const SPAN_MINUTES = 180;
const RULES: ModelRules = { bans: { count: 3, minutes: 10 }, voids: { count: 3, minutes: 10 } };
/** Targets: players, and the Roblox ids the staff clock in with (a case against staff). */
const TARGETS = [
  ...PLAYERS,
  ...STAFF.slice(0, 2).map((member) => ({ robloxId: `7${member.id.slice(-2)}`, name: member.name })),
];
const RUNS = { SQLite: 150, PostgreSQL: 25 } as const;

const moment = fc.integer({ min: 0, max: SPAN_MINUTES }).map((minute) => FROM + minute * MINUTE);

const caseArb: fc.Arbitrary<CaseFact> = fc
  .record({
    server: fc.constantFrom(...SERVERS),
    number: fc.integer({ min: 1, max: 60 }),
    type: fc.constantFrom('ban', 'ban', 'kick', 'warn'),
    target: fc.constantFrom(...TARGETS),
    // Two moderators do most: bursts come.
    moderator: fc.constantFrom(STAFF[0], STAFF[0], STAFF[1], STAFF[2]),
    createdAt: moment,
    voided: fc.option(fc.record({ afterMinutes: fc.integer({ min: 0, max: 20 }), by: fc.constantFrom('u1', 'u2') })),
  })
  .map(({ voided, ...found }) => ({
    ...found,
    voided: voided && { at: found.createdAt + voided.afterMinutes * MINUTE, by: voided.by },
  }));

const shiftArb: fc.Arbitrary<ShiftFact> = fc
  .record({
    server: fc.constantFrom(...SERVERS),
    id: fc.integer({ min: 1, max: 40 }),
    member: fc.constantFrom(STAFF[0], STAFF[1], STAFF[2]),
    startedAt: moment,
    minutes: fc.integer({ min: 5, max: 120 }),
    ended: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
  })
  .map(({ minutes, ended, ...found }) => ({ ...found, endedAt: ended ? found.startedAt + minutes * MINUTE : null }));

const key = (found: { server: string; number?: number; id?: number }) => `${found.server}:${found.number ?? found.id}`;
const communityArb: fc.Arbitrary<Community> = fc.record({
  cases: fc.uniqueArray(caseArb, { selector: key, maxLength: 14 }),
  shifts: fc.uniqueArray(shiftArb, { selector: key, maxLength: 5 }),
  sessions: fc.constant([]),
  cards: fc.constant([]),
});

const communityAndSchedule = communityArb.chain((community) =>
  fc.record({
    community: fc.constant(community),
    steps: scheduleArb(community),
    judgeAt: fc.array(fc.nat(), { maxLength: 6 }),
  }),
);

/** The guard's open incidents, as the model describes them. */
async function storedIncidents(store: Store, guildId: string): Promise<string[]> {
  const findings = await store.of(conductModule).findingsOf(guildId, 1_000);
  return findings
    .filter((finding) => finding.state === 'open')
    .map((finding) =>
      describeIncident(
        `${finding.rule}|${finding.subject}`,
        finding.hits.map((hit) => ({ key: `${hit.server}:${hit.number}` })),
      ),
    )
    .sort();
}

/**
 * Plays the schedule: each delivery through the store's accept, the record's writer with the guard's hook (as the
 * features' list wires it), the guard's passes now and then (after the `judgeAt`th steps), and at each check and the
 * end, everything merged and judged, then the incidents compared with the model's.
 */
async function play(store: Store, guildId: string, community: Community, steps: readonly Step[], judgeAt: number[]) {
  const logs = captureLogs('warn');
  const conduct = store.of(conductModule);
  const record = store.of(recordModule);
  const withMerges = (merged: Parameters<typeof dueOf>[0]) => conduct.noteDueWrites(dueOf(merged), FROM);
  const guard = new ConductGuard({
    conduct,
    moments: staffMomentsOf(store),
    clock: () => FROM,
    timers: RUNTIME_TIMERS,
    logger: logs.logger,
  });
  await conduct.setChannel(guildId, '300000000000000009');
  await conduct.setRules(guildId, {
    ...DEFAULT_RULES,
    bans: { on: true, ...RULES.bans },
    voids: { on: true, ...RULES.voids },
    'sole-staff': { ...DEFAULT_RULES['sole-staff'], on: true },
  });
  const catchUp = async () => {
    for (;;) {
      const { recorded, skipped } = await record.recordPending(50, withMerges);
      if (recorded + skipped === 0) break;
    }
    await guard.judgeDue();
  };
  const seen = new Set<string>();
  const judgeSteps = new Set(judgeAt.map((at) => at % Math.max(1, steps.length)));
  for (const [index, step] of steps.entries()) {
    if (step.kind === 'deliver') {
      const { delivery, deliveryId } = step;
      const id = `${guildId}/${deliveryId}`;
      const envelope = { id, event: delivery.event, server: delivery.server, at: delivery.at, data: delivery.data };
      await store.deliveries.accept({
        hookId: `hook-${guildId}`,
        guildId,
        deliveryId: id,
        event: delivery.event,
        server: delivery.server,
        rawBody: JSON.stringify(envelope),
        receivedAt: delivery.at,
      });
      seen.add(delivery.tells);
    } else if (step.kind === 'record') {
      await record.recordPending(step.limit, withMerges);
    } else if (step.kind === 'check') {
      await catchUp();
      expect(await storedIncidents(store, guildId), 'incidents at a check').toEqual(
        modelIncidents(community, seen, RULES),
      );
    }
    if (judgeSteps.has(index)) await guard.judgeDue();
  }
  await catchUp();
  expect(await storedIncidents(store, guildId), 'incidents at the end').toEqual(modelIncidents(community, seen, RULES));
  expect(logs.lines).toEqual([]);
}

describeOnEngines('the conduct guard, whatever the order and lateness of its deliveries', (engine) => {
  it('finds the incidents the plain model finds, each once, with the same cases', async () => {
    await assertProperty(
      fc.asyncProperty(communityAndSchedule, async ({ community, steps, judgeAt }) => {
        await play(engine.store(), engine.nextGuild(), community, steps, judgeAt);
      }),
      RUNS[engine.name as keyof typeof RUNS],
    );
  });
});
