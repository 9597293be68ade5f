import type { Clock } from './base/clock.js';
import type { Logger } from './base/logger.js';
import type { Features } from './features/index.js';
import type { Store } from './store/store.js';

/** Delivery ids are remembered this long after their event was posted; the service may retry for 24 h. */
export const POSTED_ID_TTL_MS = 25 * 60 * 60 * 1000;
/** How often what is past its retention (posted ids, and each feature's) is swept out. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Every hour, drops what is past its retention: the bodies of deliveries posted longer ago than the replay window,
 * the posted delivery ids the intake deduplicates against, and
 * whatever each feature keeps (audit entries, followed cards, held deliveries). A sweep that fails is logged and
 * tried again at the next hour; it never stops the bot.
 */
export function startRetention(parts: {
  store: Store;
  features: Features | undefined;
  clock: Clock;
  logger: Logger;
  /** How long a posted (or muted) delivery keeps its body for /feed replay (REPLAY_WINDOW_HOURS). */
  replayWindowMs: number;
}): {
  stop(): void;
} {
  const { store, clock, logger, replayWindowMs } = parts;
  // A delivery is never forgotten while it may still be replayed: its row is what a replay reads.
  const keptMs = Math.max(POSTED_ID_TTL_MS, replayWindowMs);
  const sweeps: Array<{ what: string; sweep: (now: number) => Promise<unknown> }> = [
    { what: 'posted deliveries’ bodies', sweep: (now) => store.deliveries.sweepBodies(now - replayWindowMs) },
    { what: 'posted deliveries', sweep: (now) => store.deliveries.sweepPosted(now - keptMs) },
  ];
  if (parts.features) {
    for (const [name, feature] of Object.entries(parts.features)) {
      const sweep = feature.sweep?.bind(feature);
      if (sweep) sweeps.push({ what: `the ${name} feature's records`, sweep });
    }
  }
  const timer = setInterval(() => {
    for (const { what, sweep } of sweeps) {
      sweep(clock()).catch((error: unknown) => logger.warn({ err: error }, `sweeping ${what} failed`));
    }
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
