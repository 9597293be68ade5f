import { RUNTIME_TIMERS } from '../../../../src/base/timers.js';
import { ConductGuard } from '../../../../src/features/conduct/conduct-guard.js';
import { dueOf } from '../../../../src/features/conduct/feature.js';
import { conductModule } from '../../../../src/features/conduct/store/conduct-module.js';
import { staffMomentsOf } from '../../../../src/features/record/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import type { Store } from '../../../../src/store/store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';

/*
 * A guild's staff at work, told to the bot as the service tells it: cases and shifts delivered through the store's
 * accept, merged by the record's writer with the conduct guard's hook (as the features' list wires it), judged by
 * the guard.
 */

export const MINUTE = 60_000;
export const SERVER = '4821337';
export const MODERATOR = { discordId: '500000000000000001', name: 'Ann' };
export const OTHER_MODERATOR = { discordId: '500000000000000002', name: 'Bo' };

let sent = 0;

/** A case.created of `number`, made at `at` by `moderator`. */
export function caseCreated(
  number: number,
  at: number,
  options: { type?: string; moderator?: typeof MODERATOR; target?: { robloxId: string; name: string } } = {},
) {
  const { type = 'ban', moderator = MODERATOR, target = { robloxId: '9001', name: 'BuilderBob' } } = options;
  return {
    event: 'case.created',
    at,
    data: {
      case: {
        ...{ number, type, status: 'active', target, moderator, reason: `reason ${number}`, evidence: null },
        ...{ inGame: true, createdAt: at, voidedAt: null, voidedBy: null },
      },
    },
  };
}

/** A shift.started (or, with `endedAt`, its shift.ended) of `member`. */
export function shiftEvent(id: number, member: typeof MODERATOR, startedAt: number, endedAt: number | null = null) {
  const shift = { id, discordId: member.discordId, name: member.name, robloxId: `7${member.discordId.slice(-2)}` };
  return {
    event: endedAt === null ? 'shift.started' : 'shift.ended',
    at: endedAt ?? startedAt,
    data: {
      shift: { ...shift, startedAt, endedAt, seconds: endedAt === null ? null : (endedAt - startedAt) / 1000 },
    },
  };
}

/** Delivers the events to the guild, each under a delivery id of its own, in the order given. */
export async function deliver(
  store: Store,
  guildId: string,
  events: ReadonlyArray<{ event: string; at: number; data: unknown }>,
) {
  for (const { event, at, data } of events) {
    sent += 1;
    const id = `${guildId}/d${sent}`;
    await store.deliveries.accept({
      hookId: `hook-${guildId}`,
      guildId,
      deliveryId: id,
      event,
      server: SERVER,
      rawBody: JSON.stringify({ id, event, server: SERVER, at, data }),
      receivedAt: at,
    });
  }
}

/** The record's writer with the guard's hook, until nothing waits; then the guard's pass. */
export async function recordAndJudge(store: Store, now: () => number = Date.now): Promise<void> {
  const conduct = store.of(conductModule);
  const record = store.of(recordModule);
  for (;;) {
    const pass = await record.recordPending(50, (merged) => conduct.noteDueWrites(dueOf(merged), now()));
    if (pass.recorded + pass.skipped === 0) break;
  }
  await new ConductGuard({
    conduct,
    moments: staffMomentsOf(store),
    clock: now,
    timers: RUNTIME_TIMERS,
    logger: captureLogs('warn').logger,
  }).judgeDue();
}

/** Five bans by {@link MODERATOR} a minute apart from `from`: a burst of the default rule (5 within 10 min). */
export function fiveBans(from: number, firstNumber = 1) {
  return Array.from({ length: 5 }, (_, index) => caseCreated(firstNumber + index, from + index * MINUTE));
}
