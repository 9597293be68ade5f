import type { DiscordHealth } from './discord/discord-health.js';
import type { DeliveryIntake } from './store/delivery-intake.js';
import type { StoreHealth } from './store/store-health.js';
import type { Store } from './store/store.js';

/** What GET /healthz reads: the store (and how its last operations went), the role, and Discord's state. */
export interface HealthReportParts {
  store: Pick<Store, 'kind'> & { deliveries: Pick<DeliveryIntake, 'countOpen'> };
  storeHealth: StoreHealth;
  discordHealth: DiscordHealth;
  role: string;
}

/**
 * The /healthz answer. A store that fails is reported (and the answer is unhealthy), not thrown into a 500: the
 * process is up and keeps every delivery it answered.
 */
export async function reportHealth(
  parts: HealthReportParts,
): Promise<{ healthy: boolean; report: Record<string, unknown> }> {
  const { store, storeHealth } = parts;
  const outbox = await store.deliveries.countOpen().catch((error: unknown) => {
    storeHealth.note(error);
    return undefined;
  });
  const failing = outbox === undefined || storeHealth.since !== undefined;
  return {
    healthy: !failing,
    report: {
      store: failing ? 'failing' : store.kind,
      role: parts.role,
      ...(outbox === undefined ? {} : { outbox }),
      discord: parts.discordHealth.state,
    },
  };
}
