import type { BackoffPolicy } from '../base/backoff.js';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { Timers } from '../base/timers.js';
import type { MessageSender, SendFailure } from '../discord/posting/send-failure.js';
import type { Lease, QueuedEntry } from '../store/deliveries.js';
import type { GuildSettingsStore } from '../store/guild-settings.js';
import type { LaneQueue } from '../store/lane-queue.js';
import type { BatchWindow } from './batch-window.js';
import type { CardPlanner } from './card-plan.js';
import type { EarlierPostDeps } from './earlier-post.js';
import type { SendPacer } from './send-pacer.js';

/** What every lane shares (with how a resend past Discord's nonce window looks for its post). */
export interface LaneDeps extends EarlierPostDeps {
  queue: LaneQueue;
  guilds: GuildSettingsStore;
  send: MessageSender;
  logger: Logger;
  clock: Clock;
  timers: Timers;
  backoff: BackoffPolicy;
  batchWindow: BatchWindow;
  random: () => number;
  /**
   * The lease under which this process posts the lane's guild now, or undefined once it does not (the partition
   * went to another process, or the lease could not be confirmed in time): checked before each send, and handed
   * to the store with each write, which refuses it once another process took the partition.
   */
  lease(): Lease | undefined;
  /** Told of every send's outcome (Discord's token state is the process's, not a lane's). */
  onSendOutcome(failure: SendFailure | undefined): void;
  /** Told when a pass failed for a reason other than Discord's (the store), and when one completes again. */
  onStoreOutcome?(error: unknown): void;
  /** Told each time the lane backs off before trying again. */
  onBackoff?(): void;
  /** Told of a message's entries once they are stored as posted (the metrics' time from accept to post). */
  onPosted?(entries: readonly QueuedEntry[], postedAt: number): void;
  /** Modcall cards and cards that follow their subject; without it every entry is a plain post. */
  cards?: CardPlanner;
  /** Which lane's send goes next, the longest waiting first (see {@link SendPacer}); without it, each as it comes. */
  pacer?: SendPacer;
}
