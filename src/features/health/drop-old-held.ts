import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { DeliveryRetention } from '../../store/delivery-retention.js';
import { sweepInSlices } from '../../store/sweep-in-slices.js';
import { BOT_USER_ID, type AuditLog } from '../audit/index.js';

/**
 * Held deliveries are kept this many days after they were held (docs/operations.md, "Held deliveries"), then
 * dropped.
 */
export const HELD_KEPT_DAYS = 30;
const HELD_KEPT_MS = HELD_KEPT_DAYS * 24 * 60 * 60 * 1000;

export interface DropOldHeldDeps {
  deliveries: Pick<DeliveryRetention, 'dropHeld'>;
  audit: Pick<AuditLog, 'append'>;
  clock: Clock;
  logger: Logger;
}

/**
 * Drops held deliveries past their retention, a slice at a time (the hourly sweep): nobody acted on them in
 * 30 days, and their bodies would otherwise stay forever. One log line for the sweep, and one audit line per
 * server that lost some, so its admins see in /audit why they left /feed held. Returns how many went.
 */
export async function dropOldHeld(deps: DropOldHeldDeps): Promise<number> {
  const now = deps.clock();
  const perGuild = new Map<string, number>();
  const total = await sweepInSlices(async (limit) => {
    const dropped = await deps.deliveries.dropHeld(now - HELD_KEPT_MS, limit);
    for (const { guildId, count } of dropped) perGuild.set(guildId, (perGuild.get(guildId) ?? 0) + count);
    return dropped.reduce((sum, { count }) => sum + count, 0);
  });
  if (total === 0) return 0;
  deps.logger.info(
    { dropped: total, guilds: perGuild.size, keptDays: HELD_KEPT_DAYS },
    'held deliveries past their retention dropped',
  );
  for (const [guildId, count] of perGuild) {
    const action = `Dropped ${count} held ${count === 1 ? 'delivery' : 'deliveries'} older than ${HELD_KEPT_DAYS} days`;
    // One server's line that fails to be written (the log keeps it) never keeps the others' from theirs.
    await deps.audit
      .append({ guildId, userId: BOT_USER_ID, action, result: 'done', detail: null, at: now })
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, guildId, dropped: count }, 'auditing held deliveries dropped failed'),
      );
  }
  return total;
}
