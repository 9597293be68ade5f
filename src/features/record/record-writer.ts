import type { Logger } from '../../base/logger.js';
import { Repeating } from '../../base/repeating.js';
import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { Job } from '../feature.js';
import type { CommunityRecord, RecordingPass } from './store/community-record.js';
import type { WritesWithMerges } from './store/record-merge.js';

/** How often the writer looks for updates the intake stored (a lookup lags the feed by about this much). */
const DEFAULT_WRITE_EVERY_MS = 1_000;
/** Updates merged per transaction, and passes per tick: a backlog is worked off a bounded part at a time. */
export const RECORD_SLICE = 200;
const SLICES_PER_TICK = 25;

export interface RecordWriterDeps {
  community: Pick<CommunityRecord, 'recordPending' | 'retrySetAside'>;
  timers: Timers;
  logger: Logger;
  writeEveryMs?: number | undefined;
  /**
   * Told, after each slice is merged, of the guilds for which it merged a shift change (the duty board and role
   * follow them). It must not throw; it is told nothing of a slice that failed (that slice is merged again).
   */
  onShiftsChanged?: ((guildIds: readonly string[]) => void) | undefined;
  /** Told the same way of the guilds for which it merged a session change (the coverage guard follows them). */
  onSessionsChanged?: ((guildIds: readonly string[]) => void) | undefined;
  /** Told the same way of every guild for which it merged anything (the session threads follow them). */
  onRecordChanged?: ((guildIds: readonly string[]) => void) | undefined;
  /** What other features write with each slice's merges, in their transaction (the conduct guard's due cases). */
  withMerges?: WritesWithMerges | undefined;
}

/**
 * Merges the record updates the intake stored with their deliveries into the community record, off the intake's
 * path. Each pass reads only the deliveries that still carry one (a partial index), never the whole queue. A
 * store that fails is logged and tried again at the next tick: the updates stay stored until they are merged. A
 * delivery whose merge fails on its own is set aside by the store (set-aside.ts) while the rest are merged, and
 * tried again here, on its own, when its next try is due.
 */
export class RecordWriter implements Job {
  private readonly repeating: Repeating;

  constructor(private readonly deps: RecordWriterDeps) {
    this.repeating = new Repeating(
      deps.timers,
      deps.writeEveryMs ?? DEFAULT_WRITE_EVERY_MS,
      () => this.write(),
      (error) => deps.logger.warn({ err: toLoggableError(error) }, 'recording failed; retried at the next tick'),
    );
  }

  start(): void {
    this.repeating.start();
  }

  stop(): Promise<void> {
    return this.repeating.stop();
  }

  /**
   * Merges the deliveries set aside whose next try is due, then what waits, a bounded number of slices; how many
   * deliveries were recorded (tests call it directly).
   */
  async write(): Promise<number> {
    const { community, withMerges } = this.deps;
    let total = this.tell(await community.retrySetAside(RECORD_SLICE, withMerges));
    for (let slice = 0; slice < SLICES_PER_TICK; slice += 1) {
      const pass = await community.recordPending(RECORD_SLICE, withMerges);
      total += this.tell(pass);
      if (pass.recorded + pass.skipped + pass.setAside + pass.givenUp < RECORD_SLICE) break;
      // Between slices, whatever else waits runs (an acknowledgement, a lane's send).
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  }

  /** Tells the listeners of a pass's guilds, logs what it left out or set aside; how many it recorded. */
  private tell(pass: RecordingPass): number {
    const { recorded, skipped, setAside, givenUp, guilds, shiftGuilds, sessionGuilds } = pass;
    if (guilds.length > 0) this.deps.onRecordChanged?.(guilds);
    if (shiftGuilds.length > 0) this.deps.onShiftsChanged?.(shiftGuilds);
    if (sessionGuilds.length > 0) this.deps.onSessionsChanged?.(sessionGuilds);
    const { logger } = this.deps;
    if (skipped > 0)
      logger.warn({ skipped }, 'deliveries whose body tells the community record nothing usable were left out of it');
    if (setAside > 0) {
      logger.warn(
        { setAside },
        'deliveries set aside: the community record could not merge them (/status says why); tried again with backoff',
      );
    }
    if (givenUp > 0) {
      logger.warn(
        { givenUp },
        'deliveries set aside for 30 days failed again: given up, left out of the community record',
      );
    }
    return recorded;
  }
}
