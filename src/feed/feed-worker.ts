import { MAX_EMBEDS_PER_MESSAGE } from '../embeds/limits.js';
import type { Logger } from '../logger.js';
import type { GuildSettingsRepository } from '../store/guild-settings.js';
import type { Outbox, OutboxEntry } from '../store/outbox.js';
import type { PendingSend, PendingSends } from '../store/pending-sends.js';
import type { SeenDeliveries } from '../store/seen-deliveries.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';
import { nonceForEntries } from './nonce.js';
import { packMessage } from './pack-message.js';
import { renderEntry } from './render-entry.js';
import { resolveRoute, type Route } from './route.js';
import { toSendFailure, type MessageSender, type SendFailure } from './send-failure.js';

export interface FeedWorkerDeps {
  outbox: Outbox;
  seen: SeenDeliveries;
  guilds: GuildSettingsRepository;
  sends: PendingSends;
  send: MessageSender;
  logger: Logger;
  /** Milliseconds since the Unix epoch; the timers are the runtime's (tests fake both with vi.useFakeTimers). */
  clock: () => number;
  backoff?: BackoffPolicy;
  /** How long a part-filled message waits for more events of its channel (see {@link BatchWindow}). */
  batchWindow?: BatchWindow;
  random?: () => number;
}

/**
 * A message with room left waits for more events of its channel while they keep coming: until `quietMs`
 * pass without one, or `maxMs` after the first, or it is full. A burst then leaves as full messages from its
 * first one (each message costs one slot of Discord's per-channel rate limit); a lone event waits `quietMs`.
 */
export interface BatchWindow {
  quietMs: number;
  maxMs: number;
}

export const DEFAULT_BATCH_WINDOW: BatchWindow = { quietMs: 20, maxMs: 200 };

/** Why a channel stopped taking messages until its guild's routes change. */
export interface BrokenChannel {
  channelId: string;
  guildId: string;
  status: number;
  reason: string;
  since: number;
}

/** What /status shows of one guild's feed. */
export interface GuildFeedStatus {
  waiting: number;
  /** Event name -> entries waiting because no channel is set for it. */
  unrouted: Record<string, number>;
  broken: BrokenChannel[];
  retrying: Array<{ channelId: string; failures: number; nextTryAt: number }>;
}

interface ChannelLane {
  channelId: string;
  guildId: string;
  sending: boolean;
  failures: number;
  retryTimer: NodeJS.Timeout | undefined;
  nextTryAt: number;
  broken: BrokenChannel | undefined;
  /** A message written down before it was sent, to be sent again exactly as it was. */
  reserved: PendingSend | undefined;
  /** When the last entry for this channel arrived, and since when a part-filled message has been waiting. */
  lastArrivalAt: number;
  waitingSince: number | undefined;
  batchTimer: NodeJS.Timeout | undefined;
}

/**
 * Posts outbox entries to their channels: in arrival order per channel, consecutive entries of a channel
 * batched into one message, one message in flight per channel, each channel on its own so a slow or broken
 * one never holds up the others. An entry leaves the outbox only after Discord confirmed its message.
 */
export class FeedWorker {
  private readonly lanes = new Map<string, ChannelLane>();
  /** Entries in a message in flight or written down for a resend: not to be packed into another. */
  private readonly claimed = new Set<number>();
  /** Entries Discord refused as a message of their own; kept in the outbox, skipped until restart. */
  private readonly rejected = new Set<number>();
  /** Entries of a batch Discord refused: each goes alone next, so the one at fault is found. */
  private readonly sendAlone = new Set<number>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly unsubscribe: Array<() => void> = [];
  private pumpScheduled = false;
  private running = false;
  private readonly backoff: BackoffPolicy;
  private readonly batchWindow: BatchWindow;

  constructor(private readonly deps: FeedWorkerDeps) {
    this.backoff = deps.backoff ?? DEFAULT_BACKOFF;
    this.batchWindow = deps.batchWindow ?? DEFAULT_BATCH_WINDOW;
  }

  /** Starts posting: first the messages a previous process had in flight, then everything waiting. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.recoverPendingSends();
    this.unsubscribe.push(
      this.deps.outbox.onAppend((entry) => this.onAppend(entry)),
      this.deps.guilds.onChange((guildId) => this.onRoutesChanged(guildId)),
    );
    this.schedulePump();
  }

  /** Stops starting sends and waits for the ones in flight, so their entries leave the outbox cleanly. */
  async stop(): Promise<void> {
    this.running = false;
    for (const off of this.unsubscribe.splice(0)) off();
    for (const lane of this.lanes.values()) {
      clearTimeout(lane.retryTimer);
      clearTimeout(lane.batchTimer);
    }
    await Promise.allSettled([...this.inFlight]);
  }

  /** The feed's state for one guild, derived from the outbox and the channels' states. */
  statusOf(guildId: string): GuildFeedStatus {
    const settings = this.deps.guilds.get(guildId);
    const unrouted: Record<string, number> = {};
    let waiting = 0;
    for (const entry of this.deps.outbox.list()) {
      if (entry.guildId !== guildId) continue;
      waiting += 1;
      if (!resolveRoute(settings, entry.event)) unrouted[entry.event] = (unrouted[entry.event] ?? 0) + 1;
    }
    const lanes = [...this.lanes.values()].filter((lane) => lane.guildId === guildId);
    return {
      waiting,
      unrouted,
      broken: lanes.flatMap((lane) => (lane.broken ? [lane.broken] : [])),
      retrying: lanes
        .filter((lane) => lane.retryTimer !== undefined)
        .map((lane) => ({ channelId: lane.channelId, failures: lane.failures, nextTryAt: lane.nextTryAt })),
    };
  }

  private recoverPendingSends(): void {
    for (const pending of this.deps.sends.all()) {
      // The channel the message was meant for, even if the routes changed since: its nonce belongs there.
      const first = pending.seqs.map((seq) => this.deps.outbox.get(seq)).find((entry) => entry !== undefined);
      if (!first) {
        void this.deps.sends.clear(pending.channelId);
        continue;
      }
      this.reserve(this.laneFor(pending.channelId, first.guildId), pending);
    }
  }

  private reserve(lane: ChannelLane, pending: PendingSend): void {
    lane.reserved = pending;
    for (const seq of pending.seqs) this.claimed.add(seq);
  }

  private onAppend(entry: OutboxEntry): void {
    const route = resolveRoute(this.deps.guilds.get(entry.guildId), entry.event);
    if (route) this.laneFor(route.channelId, entry.guildId).lastArrivalAt = this.deps.clock();
    this.schedulePump();
  }

  private onRoutesChanged(guildId: string): void {
    for (const lane of this.lanes.values()) {
      if (lane.guildId === guildId && lane.broken) {
        this.deps.logger.info({ channelId: lane.channelId, guildId }, 'routes changed: trying the channel again');
        lane.broken = undefined;
        lane.failures = 0;
      }
    }
    this.schedulePump();
  }

  private schedulePump(): void {
    if (this.pumpScheduled || !this.running) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Finds, for every idle channel, its earliest waiting entries, and starts one message per channel. */
  private pump(): void {
    if (!this.running) return;
    const batches = new Map<string, Array<{ entry: OutboxEntry; route: Route }>>();
    /** Channels whose batch can take no more entries (later ones must not overtake the one left out). */
    const full = new Set<string>();
    for (const lane of this.lanes.values()) {
      if (lane.reserved && this.isIdle(lane)) batches.set(lane.channelId, []);
    }
    for (const entry of this.deps.outbox.list()) {
      if (this.claimed.has(entry.seq) || this.rejected.has(entry.seq)) continue;
      const route = resolveRoute(this.deps.guilds.get(entry.guildId), entry.event);
      if (!route || full.has(route.channelId)) continue;
      const lane = this.laneFor(route.channelId, entry.guildId);
      if (!this.isIdle(lane) || lane.reserved) continue;
      const batch = batches.get(lane.channelId) ?? [];
      batches.set(lane.channelId, batch);
      if (batch.length > 0 && this.sendAlone.has(entry.seq)) {
        full.add(lane.channelId);
        continue;
      }
      batch.push({ entry, route });
      if (batch.length === MAX_EMBEDS_PER_MESSAGE || this.sendAlone.has(entry.seq)) full.add(lane.channelId);
    }
    for (const [channelId, batch] of batches) {
      const lane = this.lanes.get(channelId);
      if (!lane || (!lane.reserved && !full.has(channelId) && this.holdForMore(lane))) continue;
      lane.waitingSince = undefined;
      this.track(this.sendNext(lane, batch));
    }
  }

  /** True while a part-filled message should wait for more of a burst (see {@link BatchWindow}). */
  private holdForMore(lane: ChannelLane): boolean {
    const now = this.deps.clock();
    lane.waitingSince ??= now;
    const quietUntil = lane.lastArrivalAt + this.batchWindow.quietMs;
    const deadline = lane.waitingSince + this.batchWindow.maxMs;
    if (now >= quietUntil || now >= deadline) return false;
    clearTimeout(lane.batchTimer);
    lane.batchTimer = setTimeout(
      () => {
        lane.batchTimer = undefined;
        this.schedulePump();
      },
      Math.min(quietUntil, deadline) - now,
    );
    return true;
  }

  private isIdle(lane: ChannelLane): boolean {
    return !lane.sending && lane.retryTimer === undefined && lane.broken === undefined;
  }

  private laneFor(channelId: string, guildId: string): ChannelLane {
    let lane = this.lanes.get(channelId);
    if (!lane) {
      lane = {
        channelId,
        guildId,
        sending: false,
        failures: 0,
        retryTimer: undefined,
        nextTryAt: 0,
        broken: undefined,
        reserved: undefined,
        lastArrivalAt: 0,
        waitingSince: undefined,
        batchTimer: undefined,
      };
      this.lanes.set(channelId, lane);
    }
    return lane;
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async sendNext(lane: ChannelLane, candidates: Array<{ entry: OutboxEntry; route: Route }>): Promise<void> {
    lane.sending = true;
    let entries: OutboxEntry[] = [];
    try {
      const message = await this.prepare(lane, candidates);
      if (!message) return;
      entries = message.entries;
      await this.deps.send(lane.channelId, message.body);
      await this.confirm(lane, entries);
      lane.failures = 0;
    } catch (error) {
      await this.handleFailure(lane, entries, toSendFailure(error));
    } finally {
      lane.sending = false;
      this.schedulePump();
    }
  }

  /** The message to send: the reserved one again, or a new batch written down before it is sent. */
  private async prepare(lane: ChannelLane, candidates: Array<{ entry: OutboxEntry; route: Route }>) {
    if (lane.reserved) {
      const pending = lane.reserved;
      const entries = pending.seqs.map((seq) => this.deps.outbox.get(seq));
      const waiting = entries.filter((entry): entry is OutboxEntry => entry !== undefined);
      if (waiting.length < entries.length) {
        // Some of its entries already left the outbox: Discord had confirmed that message before a crash.
        await this.confirm(lane, waiting);
        return undefined;
      }
      const rendered = waiting.map((entry) => ({ item: entry, payload: this.render(entry, lane.channelId) }));
      const packed = packMessage(rendered);
      return { entries: waiting, body: { ...packed.payload, nonce: pending.nonce, enforce_nonce: true as const } };
    }
    const rendered = candidates.map(({ entry, route }) => ({ item: entry, payload: renderEntry(entry, route) }));
    const packed = packMessage(rendered);
    const pending: PendingSend = {
      channelId: lane.channelId,
      nonce: nonceForEntries(packed.items),
      seqs: packed.items.map((e) => e.seq),
    };
    this.reserve(lane, pending);
    await this.deps.sends.save(pending);
    return { entries: packed.items, body: { ...packed.payload, nonce: pending.nonce, enforce_nonce: true as const } };
  }

  private render(entry: OutboxEntry, channelId: string) {
    const route = resolveRoute(this.deps.guilds.get(entry.guildId), entry.event);
    // A resend goes where it went the first time (its nonce is that channel's); the ping follows today's route.
    return renderEntry(entry, route?.channelId === channelId ? route : { channelId });
  }

  /**
   * Discord has the message: remember the ids (so repeats are refused), then let the entries go. The writes of
   * each step go together, so the store commits each step once, not once per entry.
   */
  private async confirm(lane: ChannelLane, entries: OutboxEntry[]): Promise<void> {
    await Promise.all(entries.map((entry) => this.deps.seen.add(entry.hookId, entry.deliveryId)));
    await this.deps.outbox.remove(entries);
    for (const entry of entries) this.sendAlone.delete(entry.seq);
    await this.release(lane);
  }

  private async release(lane: ChannelLane): Promise<void> {
    if (lane.reserved) for (const seq of lane.reserved.seqs) this.claimed.delete(seq);
    lane.reserved = undefined;
    await this.deps.sends.clear(lane.channelId);
  }

  private async handleFailure(lane: ChannelLane, entries: OutboxEntry[], failure: SendFailure): Promise<void> {
    const log = { channelId: lane.channelId, guildId: lane.guildId, entries: entries.length, reason: failure.reason };
    switch (failure.kind) {
      case 'broken':
        // Nothing was posted: the entries go back to the pool, so a new route takes them.
        await this.release(lane);
        lane.broken = {
          channelId: lane.channelId,
          guildId: lane.guildId,
          status: failure.status,
          reason: failure.reason,
          since: this.deps.clock(),
        };
        this.deps.logger.warn(
          { ...log, status: failure.status },
          'channel unusable: its events wait until the routes change',
        );
        return;
      case 'rejected':
        await this.release(lane);
        if (entries.length === 1 && entries[0]) {
          this.rejected.add(entries[0].seq);
          this.deps.logger.error(
            { ...log, status: failure.status, deliveryId: entries[0].deliveryId },
            'Discord refused a message; the entry stays in the outbox',
          );
        } else {
          // One entry of the batch is at fault: its entries go one by one, through the usual path, to find it.
          this.deps.logger.warn(log, 'Discord refused a batch; sending its entries one by one');
          for (const entry of entries) this.sendAlone.add(entry.seq);
        }
        return;
      case 'wait':
        this.retryLater(lane, failure.retryAfterMs, log);
        return;
      case 'retry':
        lane.failures += 1;
        this.retryLater(lane, backoffDelay(lane.failures, this.backoff, this.deps.random), log);
        return;
    }
  }

  private retryLater(lane: ChannelLane, delayMs: number, log: Record<string, unknown>): void {
    this.deps.logger.warn({ ...log, failures: lane.failures, retryInMs: delayMs }, 'send failed; will retry');
    lane.nextTryAt = this.deps.clock() + delayMs;
    lane.retryTimer = setTimeout(() => {
      lane.retryTimer = undefined;
      this.schedulePump();
    }, delayMs);
  }
}
