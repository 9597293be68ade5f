import { DEFAULT_BACKOFF, type BackoffPolicy } from '../base/backoff.js';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import { RUNTIME_TIMERS, type Timers } from '../base/timers.js';
import type { MessageSender, SendFailure } from '../discord/posting/send-failure.js';
import { ownEverything, partitionOf, type FeedOwnership } from '../store/coordination.js';
import type { GuildSettingsStore } from '../store/guild-settings.js';
import type { LaneQueue } from '../store/lane-queue.js';
import type { StoreSignals } from '../store/signals.js';
import { DEFAULT_BATCH_WINDOW, type BatchWindow } from './batch-window.js';
import type { CardPlanner } from './card-plan.js';
import type { LaneDeps } from './lane-deps.js';
import { Lane } from './lane.js';
import type { SendPacer } from './send-pacer.js';

export interface FeedWorkerDeps {
  queue: LaneQueue;
  guilds: GuildSettingsStore;
  signals: StoreSignals;
  send: MessageSender;
  logger: Logger;
  /** Milliseconds since the Unix epoch. */
  clock: Clock;
  timers?: Timers;
  backoff?: BackoffPolicy;
  /** How long a part-filled message waits for more events of its channel (see {@link BatchWindow}). */
  batchWindow?: BatchWindow;
  random?: () => number;
  /** Told of every send's outcome: a 401 means Discord refuses the token (see DiscordHealth). */
  onSendOutcome?: (failure: SendFailure | undefined) => void;
  /** Told when a lane's pass fails at the store (an error), and when one completes again (undefined). */
  onStoreOutcome?: (error: unknown) => void;
  /** Told each time a lane backs off before trying again (Discord failed or rate-limited it, or the store). */
  onBackoff?: () => void;
  /** Told of a message's entries once they are stored as posted (see {@link LaneDeps.onPosted}). */
  onPosted?: LaneDeps['onPosted'];
  /** Which guilds this process posts (default: all of them, one process). */
  ownership?: FeedOwnership;
  /** How often the store is read again for work whose signal may have been missed (default 30 s). */
  rescanMs?: number;
  /** Modcall cards and cards that follow their subject (absent: every entry is a plain post). */
  cards?: CardPlanner;
  /** Finds an earlier post of a resend past the nonce window (see {@link LaneDeps.findPosted}). */
  findPosted?: LaneDeps['findPosted'];
  nonceWindowMs?: number;
  /** Shares out Discord's rate among the lanes, the oldest entry first (absent: each lane's send goes at once). */
  pacer?: SendPacer;
}

/** Work is announced by signals; this re-read of the store is the safety net for one that got lost. */
const DEFAULT_RESCAN_MS = 30_000;
/**
 * A rescan whose read of the store failed is done again this soon (a full one, doubling up to the rescan
 * period while the store keeps failing): after a partition is gained nothing else starts its lanes, and the
 * failover bound in docs/hosting.md ("How long a failover takes") does not count on the 30 s safety net.
 */
const RESCAN_RETRY_MS = 1_000;

/**
 * Posts the store's waiting deliveries to their channels, one {@link Lane} per channel with work: each in store
 * order, batched, one message in flight, so a slow or broken channel never holds up the others. The worker
 * keeps no backlog in memory: it learns of work from the store's signals (and, at start, from the store), and
 * touches only the lane that has it.
 */
export class FeedWorker {
  private readonly lanes = new Map<string, Lane>();
  private unsubscribe: (() => void) | undefined;
  private rescanTimer: NodeJS.Timeout | undefined;
  /** The retry of a failed rescan, when one is due, and how many failed in a row. */
  private rescanRetry: { timer: NodeJS.Timeout | undefined; failures: number } = { timer: undefined, failures: 0 };
  private running = false;
  private readonly ownership: FeedOwnership;
  /** The partitions this process was given and has not been told it is losing. */
  private readonly owned = new Set<number>();

  constructor(private readonly deps: FeedWorkerDeps) {
    this.ownership = deps.ownership ?? ownEverything();
  }

  /** Starts posting the owned guilds: every channel with waiting entries (a message written down goes first). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.deps.signals.subscribe((signal) => {
      if (signal.kind === 'work') this.wake(signal.channelId, signal.guildId, signal.at);
      else if (signal.kind === 'resync') this.rescan(() => true);
    });
    await this.ownership.start({
      gained: (partitions) => {
        for (const partition of partitions) this.owned.add(partition);
        const gained = new Set(partitions);
        // Logged with the channels started: the failover timeline (bench/scale-failover.ts) reads it.
        this.rescan(
          (guildId) => gained.has(partitionOf(guildId)),
          (channels) =>
            this.deps.logger.info({ partitions: partitions.length, channels }, 'lanes started for gained partitions'),
        );
      },
      losing: (partitions) => {
        for (const partition of partitions) this.owned.delete(partition);
        return this.stopLanesOf(new Set(partitions));
      },
    });
    this.rescanTimer = setInterval(() => this.rescan(() => true), this.deps.rescanMs ?? DEFAULT_RESCAN_MS);
    this.rescanTimer.unref();
  }

  /** Stops starting sends and waits for the ones in flight, so their entries are confirmed cleanly. */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    clearInterval(this.rescanTimer);
    clearTimeout(this.rescanRetry.timer);
    await Promise.all([...this.lanes.values()].map((lane) => lane.stop()));
    this.lanes.clear();
    await this.ownership.stop();
    this.owned.clear();
  }

  /** How many of the partitions (of guilds' feeds) this process posts now: all of them with one process. */
  get ownedPartitions(): number {
    return this.owned.size;
  }

  /** Starts the lanes of owned channels with work whose guild `include` takes (after a restart, a lease, a gap). */
  private rescan(include: (guildId: string) => boolean, started?: (channels: string[]) => void): void {
    if (!this.running) return;
    void (async () => {
      const channels: string[] = [];
      // One query for all the lanes (and their stored backoff): no await between the ownership check and the
      // lane's start, so a partition given away meanwhile never gets a second lane here.
      for (const { channelId, guildId, retryAt } of await this.deps.queue.channelsWithWork()) {
        if (!this.running || !include(guildId) || !this.ownership.owns(guildId) || this.lanes.has(channelId)) continue;
        const lane = this.laneFor(channelId, guildId);
        if (retryAt === undefined) lane.poke();
        else lane.resumeAt(retryAt);
        channels.push(channelId);
      }
      this.rescanRetry.failures = 0;
      // The store answered: a failing period noted by lanes ends here too, for a process whose lanes all went to
      // another process meanwhile (or found no work left) and so never get to note a success of their own.
      this.deps.onStoreOutcome?.(undefined);
      started?.(channels);
    })().catch((error: unknown) => {
      this.deps.logger.warn({ err: error }, 'reading the channels with work failed; reading again soon');
      this.retryRescan();
    });
  }

  /** One full rescan soon after a failed one (several failing at once share it). */
  private retryRescan(): void {
    if (!this.running || this.rescanRetry.timer !== undefined) return;
    this.rescanRetry.failures += 1;
    const delay = Math.min(
      this.deps.rescanMs ?? DEFAULT_RESCAN_MS,
      RESCAN_RETRY_MS * 2 ** (this.rescanRetry.failures - 1),
    );
    this.rescanRetry.timer = setTimeout(() => {
      this.rescanRetry.timer = undefined;
      this.rescan(() => true);
    }, delay);
    this.rescanRetry.timer.unref();
  }

  /** Stops the lanes of these partitions' guilds and waits for their sends: another process takes them next. */
  private async stopLanesOf(partitions: ReadonlySet<number>): Promise<void> {
    const leaving = [...this.lanes.values()].filter((lane) => partitions.has(partitionOf(lane.guildId)));
    for (const lane of leaving) this.lanes.delete(lane.channelId);
    await Promise.all(leaving.map((lane) => lane.stop()));
  }

  /** Lanes alive now (tests and benchmarks: it stays at the channels with work, whatever the backlog). */
  get laneCount(): number {
    return this.lanes.size;
  }

  private wake(channelId: string, guildId: string, at: number): void {
    if (this.running && this.ownership.owns(guildId)) this.laneFor(channelId, guildId).poke(at);
  }

  private laneFor(channelId: string, guildId: string): Lane {
    let lane = this.lanes.get(channelId);
    if (!lane) {
      lane = new Lane(
        channelId,
        guildId,
        {
          queue: this.deps.queue,
          guilds: this.deps.guilds,
          send: this.deps.send,
          logger: this.deps.logger,
          clock: this.deps.clock,
          timers: this.deps.timers ?? RUNTIME_TIMERS,
          backoff: this.deps.backoff ?? DEFAULT_BACKOFF,
          batchWindow: this.deps.batchWindow ?? DEFAULT_BATCH_WINDOW,
          random: this.deps.random ?? Math.random,
          lease: () => this.ownership.leaseOf(guildId),
          onSendOutcome: (failure) => this.deps.onSendOutcome?.(failure),
          onStoreOutcome: (error) => this.deps.onStoreOutcome?.(error),
          onBackoff: () => this.deps.onBackoff?.(),
          onPosted: (entries, postedAt) => this.deps.onPosted?.(entries, postedAt),
          ...(this.deps.cards ? { cards: this.deps.cards } : {}),
          ...(this.deps.pacer ? { pacer: this.deps.pacer } : {}),
          ...(this.deps.findPosted ? { findPosted: this.deps.findPosted } : {}),
          ...(this.deps.nonceWindowMs === undefined ? {} : { nonceWindowMs: this.deps.nonceWindowMs }),
        },
        (idle) => {
          if (this.lanes.get(idle.channelId) === idle && !idle.busy) this.lanes.delete(idle.channelId);
        },
      );
      this.lanes.set(channelId, lane);
    }
    return lane;
  }
}
