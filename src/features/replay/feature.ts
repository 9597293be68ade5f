import type { BotParts, Feature } from '../feature.js';
import { ReplayDesk } from './replay-desk.js';
import { ReplayRunner } from './replay-runner.js';
import { replayModule } from './store/replay-module.js';

const HOUR_MS = 60 * 60 * 1000;
/** An ended run is kept this long after it ended (a week), whatever the window: /feed replay tells of it. */
const ENDED_RUN_KEPT_MS = 7 * 24 * HOUR_MS;

/** What /feed replay and its button use. */
export interface ReplayDeps {
  replays: ReplayDesk;
}

/**
 * Replay (/feed replay): posts the last hours of the events a channel's routes now send it, once each, marked as
 * replayed, paced so the live feed goes first. Its runner is a job (where the gateway is); its sweep forgets what
 * was replayed once it is past the window (nothing older can be replayed anyway) and runs ended a week ago.
 */
export function createReplayFeature(parts: BotParts): Feature<ReplayDeps> & { runner: ReplayRunner } {
  const store = parts.store.of(replayModule);
  const runner = new ReplayRunner({
    store,
    guilds: parts.store.guilds,
    poster: parts.poster,
    findPosted: parts.findPosted,
    nonceWindowMs: parts.nonceWindowMs,
    pacer: parts.pacer,
    clock: parts.clock,
    timers: parts.timers,
    logger: parts.logger,
  });
  const windowHours = parts.config.REPLAY_WINDOW_HOURS;
  return {
    deps: { replays: new ReplayDesk({ store, runner, clock: parts.clock }, windowHours) },
    runner,
    jobs: [runner],
    sweep: (now) => store.sweep(now - windowHours * HOUR_MS, now - ENDED_RUN_KEPT_MS),
  };
}
