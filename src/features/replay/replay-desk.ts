import { randomUUID } from 'node:crypto';

import type { Clock } from '../../base/clock.js';
import { UserFacingError } from '../../base/errors.js';
import type { ReplayRunner } from './replay-runner.js';
import type { ReplayRun, ReplayStore } from './store/replay-store.js';

const HOUR_MS = 60 * 60 * 1000;
/** How far back a replay goes when the admin names no hours: a day, or the whole window if it is shorter. */
export const DEFAULT_REPLAY_HOURS = 24;

/** A replay asked for: into which channel, how far back, by whom. */
export interface ReplayRequest {
  guildId: string;
  channelId: string;
  /** Undefined: {@link DEFAULT_REPLAY_HOURS}, within the window. */
  hours: number | undefined;
  startedBy: string;
}

/** Where a replay asked for stands: started now, or one was already running into the channel. */
export interface ReplayStarted {
  started: boolean;
  run: ReplayRun;
  hours: number;
}

/**
 * Starts replays: checks the hours against the replay window (how long posted deliveries keep their bodies, the
 * host's REPLAY_WINDOW_HOURS), stores the run (one per channel at a time), and hands it to the runner.
 */
export class ReplayDesk {
  constructor(
    private readonly deps: { store: ReplayStore; runner: Pick<ReplayRunner, 'poke'>; clock: Clock },
    /** The replay window, in hours; 0: replay is off. */
    readonly windowHours: number,
  ) {}

  /** @throws UserFacingError when replay is off, or the hours reach past the window */
  hoursOf(asked: number | undefined): number {
    if (this.windowHours === 0) {
      throw new UserFacingError(
        'Replay is off on this bot: its host set REPLAY_WINDOW_HOURS to 0, so posted events keep nothing to post again.',
      );
    }
    const hours = asked ?? Math.min(DEFAULT_REPLAY_HOURS, this.windowHours);
    if (hours > this.windowHours) {
      throw new UserFacingError(
        `I keep posted events for ${this.windowHours} h (the replay window), so I can replay at most the last ` +
          `${this.windowHours} hours: ask for ${this.windowHours} or fewer. Nothing was started.`,
      );
    }
    return hours;
  }

  async start(request: ReplayRequest): Promise<ReplayStarted> {
    const hours = this.hoursOf(request.hours);
    const now = this.deps.clock();
    const { started, run } = await this.deps.store.start({
      runId: randomUUID(),
      guildId: request.guildId,
      channelId: request.channelId,
      sinceAt: now - hours * HOUR_MS,
      upToSeq: await this.deps.store.latestSeq(),
      startedBy: request.startedBy,
      startedAt: now,
    });
    if (started) this.deps.runner.poke(run.runId);
    return { started, run, hours };
  }
}

/** The admin's answer to a replay asked for. */
export function describeReplayStarted({ started, run, hours }: ReplayStarted): string {
  if (!started) {
    return (
      `A replay into <#${run.channelId}> is already running (${run.posted} event(s) posted so far): ` +
      'it goes on; start another once it is done.'
    );
  }
  return (
    `Replaying the last ${hours} h of events that now go to <#${run.channelId}>: in order, each once, marked ` +
    '"Replayed", at a pace that leaves live events first. Events posted there already are left out.'
  );
}
