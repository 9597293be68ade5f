import { bridgeVersion } from './base/version.js';
import type { DiscordHealth } from './discord/discord-health.js';
import type { RecordView } from './features/record/index.js';
import type { DeliveryIntake } from './store/delivery-intake.js';
import type { StoreHealth } from './store/store-health.js';
import type { Store } from './store/store.js';

/** What GET /healthz reads: the store (and how its last operations went), the role, and Discord's state. */
export interface HealthReportParts {
  store: Pick<Store, 'kind'> & { deliveries: Pick<DeliveryIntake, 'countOpen'> };
  /** How far the community record's writer is behind. */
  record: Pick<RecordView, 'oldestUnrecordedAt'>;
  storeHealth: StoreHealth;
  discordHealth: DiscordHealth;
  role: string;
  now: () => number;
}

/**
 * The /healthz answer. A store that fails is reported (and the answer is unhealthy), not thrown into a 500: the
 * process is up and keeps every delivery it answered.
 */
export async function reportHealth(
  parts: HealthReportParts,
): Promise<{ healthy: boolean; report: Record<string, unknown> }> {
  const { store, storeHealth } = parts;
  // Failing now, or failing for the feed's lanes since their last failure: a failed read here is not noted, or
  // a process without lanes to note a success (ROLE=intake, or no partition) would say failing ever after.
  const failed = () => null;
  const [outbox, oldestUnrecorded] = await Promise.all([
    store.deliveries.countOpen().catch(failed),
    parts.record.oldestUnrecordedAt().catch(failed),
  ]);
  const failing = outbox === null || oldestUnrecorded === null || storeHealth.since !== undefined;
  // Seconds since the oldest delivery not yet in the community record was received (0: none waits).
  const shards = parts.discordHealth.shards;
  const recordLag = oldestUnrecorded ? Math.max(0, Math.floor((parts.now() - oldestUnrecorded) / 1000)) : 0;
  return {
    healthy: !failing,
    report: {
      version: bridgeVersion(),
      store: failing ? 'failing' : store.kind,
      role: parts.role,
      ...(outbox === null ? {} : { outbox }),
      ...(oldestUnrecorded === null ? {} : { record_lag_s: recordLag }),
      discord: parts.discordHealth.state,
      ...(shards === undefined ? {} : { discord_shards: shards }),
    },
  };
}
