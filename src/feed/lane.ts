import type { FeedCards, LanePlan, RenderedEntry } from '../cards/feed-cards.js';
import type { Clock } from '../clock.js';
import { MAX_EMBEDS_PER_MESSAGE } from '../embeds/limits.js';
import type { Logger } from '../logger.js';
import { partitionOf } from '../store/coordination.js';
import { LeaseLostError, type Lease, type QueuedEntry } from '../store/deliveries.js';
import type { GuildSettingsStore } from '../store/guild-settings.js';
import type { LaneQueue } from '../store/lane-queue.js';
import { resolveRoute } from '../store/routing-rules.js';
import type { Timers } from '../timers.js';
import { backoffDelay, type BackoffPolicy } from './backoff.js';
import { nonceForEntries } from './nonce.js';
import { packMessage } from './pack-message.js';
import { renderEntry } from './render-entry.js';
import {
  SendError,
  toSendFailure,
  type FeedMessageBody,
  type MessageSender,
  type SendFailure,
} from './send-failure.js';
import { parseWrittenPost, serializeWrittenPost } from './written-message.js';

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

/** What every lane shares. */
export interface LaneDeps {
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
  /** Modcall cards and cards that follow their subject; without it every entry is a plain post. */
  cards?: FeedCards;
  /**
   * Finds a post of this body in the channel made since a time (its id), for a resend past the nonce window;
   * without it a resend relies on the nonce alone.
   */
  findPosted?: (channelId: string, body: FeedMessageBody, since: number) => Promise<string | undefined>;
  /** How long Discord recognises a nonce (enforce_nonce); a resend later than this looks for the post first. */
  nonceWindowMs?: number;
}

/** Discord documents no length for its nonce check ("a few minutes"): 4 minutes is on the safe side. */
export const DEFAULT_NONCE_WINDOW_MS = 4 * 60_000;

/**
 * What goes next, written down under its nonce: a message of these entries (`rendered` is what each one put
 * in it), or the update of a card already posted by one entry.
 */
type Outgoing =
  | { kind: 'post'; entries: QueuedEntry[]; rendered: RenderedEntry[]; body: FeedMessageBody; writtenAt: number }
  | { kind: 'update'; entries: QueuedEntry[]; nonce: string; run: () => Promise<'done' | 'gone'> };

/**
 * One channel's lane: posts the channel's waiting entries in store order, consecutive ones batched into one
 * message, one message in flight at a time. The store holds everything that matters (entries, the message
 * written down before a send, failures, when to retry, broken channels); the lane holds only its timers and
 * which refused entries to send one by one. It runs only when poked (new work, its timer): a lane never looks
 * at another channel's backlog, and an idle lane is dropped.
 */
export class Lane {
  private passing: Promise<void> | undefined;
  private pokedDuringPass = false;
  private timer: unknown;
  private timerKind: 'batch' | 'retry' | undefined;
  private lastArrivalAt = 0;
  private holdingSince: number | undefined;
  private failures = 0;
  /** Passes in a row that the store failed (it restarts, fails over, is out of disk): the lane backs off. */
  private storeFailures = 0;
  /** Entries of a batch Discord refused: each goes alone next, so the one at fault is found. */
  private readonly sendAlone = new Set<number>();
  private stopped = false;

  constructor(
    readonly channelId: string,
    readonly guildId: string,
    private readonly deps: LaneDeps,
    private readonly onIdle: (lane: Lane) => void,
  ) {}

  /** True while the lane has a pass running or a timer set (it must not be dropped). */
  get busy(): boolean {
    return this.passing !== undefined || this.timer !== undefined;
  }

  /** New work for this channel (arrived at `arrivedAt`, if it is an arrival), or a reason to look again. */
  poke(arrivedAt?: number): void {
    if (arrivedAt !== undefined) this.lastArrivalAt = Math.max(this.lastArrivalAt, arrivedAt);
    if (this.stopped) return;
    if (this.passing) {
      this.pokedDuringPass = true;
      return;
    }
    // Waiting out a retry: new work changes nothing. Holding a part-filled message: the pass decides again.
    if (this.timerKind === 'retry') return;
    this.clearTimer();
    this.passing = this.pass()
      .then(
        () => this.noteStoreOutcome(undefined),
        (error: unknown) => this.noteStoreOutcome(error),
      )
      .finally(() => {
        this.passing = undefined;
        if (this.pokedDuringPass) {
          this.pokedDuringPass = false;
          this.poke();
        } else if (!this.busy) {
          this.onIdle(this);
        }
      });
  }

  /**
   * A pass that threw failed at the store (a send's failures are handled inside it): nothing was lost, since
   * what is written down stays and an ack that did not commit is sent again under the same nonce. The lane
   * tries again after a backoff, and keeps the process up.
   */
  private noteStoreOutcome(error: unknown): void {
    if (error instanceof LeaseLostError) {
      // Not a failure: another process posts this channel now, from what the store holds (a message written
      // down here is resent there under its nonce). This lane ends; the worker drops it.
      this.stopped = true;
      this.clearTimer();
      this.deps.logger.info(
        { channelId: this.channelId, guildId: this.guildId },
        'this process no longer holds the lease of this channel’s guild; its lane stops',
      );
      return;
    }
    if (error === undefined) {
      this.storeFailures = 0;
      this.deps.onStoreOutcome?.(undefined);
      return;
    }
    this.storeFailures += 1;
    this.deps.onStoreOutcome?.(error);
    const delay = backoffDelay(this.storeFailures, this.deps.backoff, this.deps.random);
    this.deps.logger.warn(
      { channelId: this.channelId, guildId: this.guildId, err: error, failures: this.storeFailures, retryInMs: delay },
      'the store failed during a send; the lane tries again',
    );
    if (!this.stopped) this.setTimer('retry', delay);
  }

  /** Waits out a retry time stored before a restart, then runs. */
  resumeAt(retryAt: number): void {
    const delay = retryAt - this.deps.clock();
    if (delay > 0) this.setTimer('retry', delay);
    else this.poke();
  }

  /** Stops starting sends; resolves once the send in flight (if any) is done with. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    await this.passing;
  }

  /** Sends message after message until the lane is empty, a message waits for more, or a send fails. */
  private async pass(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const outgoing = await this.prepare();
      if (!outgoing) return;
      const nonce = outgoing.kind === 'post' ? outgoing.body.nonce : outgoing.nonce;
      // The lease is checked again right before the send: the write-down may be a while ago (a pause, a slow
      // store), and a process that lost the lease must not post what the next owner will resend.
      this.leaseNow();
      let messageId: string | void = undefined;
      try {
        if (outgoing.kind === 'update') {
          if ((await outgoing.run()) === 'gone') {
            // The card can no longer be edited: the entry is written down again as a message of its own.
            await this.deps.queue.release(this.channelId, nonce, this.leaseNow());
            continue;
          }
        } else {
          messageId = (await this.findEarlierPost(outgoing)) ?? (await this.deps.send(this.channelId, outgoing.body));
        }
      } catch (error) {
        if (error instanceof LeaseLostError) throw error;
        const failure = toSendFailure(error);
        this.deps.onSendOutcome(failure);
        await this.handleFailure(outgoing.entries, nonce, failure);
        return;
      }
      this.deps.onSendOutcome(undefined);
      if (outgoing.kind === 'post' && messageId) await this.notePosted(messageId, outgoing.rendered);
      await this.deps.queue.ack(this.channelId, nonce, this.deps.clock(), this.leaseNow());
      this.failures = 0;
      for (const entry of outgoing.entries) this.sendAlone.delete(entry.seq);
    }
  }

  /**
   * A message written down longer ago than Discord keeps nonces may have been posted by a send whose answer was
   * lost (a timeout, a crash): the channel's messages since it was written down are looked through first, so it
   * is not posted twice. Within the window the nonce does that, at no cost.
   */
  private async findEarlierPost(outgoing: Extract<Outgoing, { kind: 'post' }>): Promise<string | undefined> {
    const window = this.deps.nonceWindowMs ?? DEFAULT_NONCE_WINDOW_MS;
    if (!this.deps.findPosted || this.deps.clock() - outgoing.writtenAt < window) return undefined;
    const found = await this.deps.findPosted(this.channelId, outgoing.body, outgoing.writtenAt);
    if (found) this.deps.logger.info({ channelId: this.channelId, messageId: found }, 'found the post of a resend');
    return found;
  }

  /**
   * Where the message's cards are, before the ack. A store that fails here fails the pass: the message is sent
   * again under its nonce (Discord answers with the same message) and its cards recorded then.
   */
  private async notePosted(messageId: string, rendered: RenderedEntry[]): Promise<void> {
    try {
      await this.deps.cards?.posted(this.guildId, this.channelId, messageId, rendered);
    } catch (error) {
      if (!(error instanceof SendError)) throw error;
      // Discord refused an edit of an earlier card: the post stands, that card keeps the state it shows.
      this.deps.logger.warn({ channelId: this.channelId, messageId, err: error }, 'could not bring a card up to date');
    }
  }

  /** The next message: the one written down before (sent again as it was), or a new one, written down first. */
  private async prepare(): Promise<Outgoing | undefined> {
    for (;;) {
      const entries = await this.deps.queue.nextFor(this.channelId, MAX_EMBEDS_PER_MESSAGE);
      const [first] = entries;
      if (!first) return undefined;
      if (first.claimNonce !== null) return this.resend(entries, first.claimNonce);

      const candidates = this.takeCandidates(entries);
      const plan = await this.plan(candidates);
      if (plan.kind === 'post') {
        const full = plan.cut || candidates.length === MAX_EMBEDS_PER_MESSAGE || candidates.length < entries.length;
        if (!full && this.holdForMore()) return undefined;
      }
      this.holdingSince = undefined;
      const outgoing = this.toOutgoing(plan, undefined);
      // Written down before it is sent: a crash after the send resends this very message, under this nonce.
      const seqs = outgoing.entries.map((entry) => entry.seq);
      if (outgoing.kind === 'update') {
        // One entry: a resend plans it again (the card may be gone by then, and it is posted on its own).
        if (await this.deps.queue.writeDown(this.channelId, outgoing.nonce, seqs, undefined, this.leaseNow())) {
          return outgoing;
        }
        continue;
      }
      const written = serializeWrittenPost({
        body: outgoing.body,
        parts: outgoing.rendered.map(({ payload, settled }) => (settled ? { payload, settled } : { payload })),
        writtenAt: outgoing.writtenAt,
      });
      if (await this.deps.queue.writeDown(this.channelId, outgoing.body.nonce, seqs, written, this.leaseNow())) {
        return outgoing;
      }
    }
  }

  /**
   * A message written down before, exactly as it was written down (its entries, its body, the cards it carries),
   * under its nonce: what the cards would plan now may differ (another lane posted a card meanwhile), and every
   * entry under the nonce is confirmed with it.
   */
  private async resend(entries: QueuedEntry[], nonce: string): Promise<Outgoing> {
    const written = parseWrittenPost(
      await this.deps.queue.writtenMessage(this.channelId, nonce),
      nonce,
      entries.length,
    );
    if (written) {
      const rendered = entries.flatMap((item, index) => {
        const part = written.parts[index];
        return part ? [{ ...part, item }] : [];
      });
      return { kind: 'post', entries, rendered, body: written.body, writtenAt: written.writtenAt };
    }
    // An update (one entry, planned again), or a post written down by a version that kept no message.
    const outgoing = this.toOutgoing(await this.plan(entries), nonce);
    if (outgoing.entries.length === entries.length) return outgoing;
    // Planned differently now: every entry written down goes, drawn plainly, so none is confirmed unsent.
    return this.toOutgoing({ kind: 'post', items: await this.renderEach(entries), components: [], cut: false }, nonce);
  }

  /** This process's lease on the lane's guild; throws {@link LeaseLostError} (ending the lane) when it has none. */
  private leaseNow(): Lease {
    const lease = this.deps.lease();
    if (!lease) throw new LeaseLostError(partitionOf(this.guildId));
    return lease;
  }

  private async plan(entries: QueuedEntry[]): Promise<LanePlan> {
    const rendered = await this.renderEach(entries);
    if (this.deps.cards) return this.deps.cards.plan(this.guildId, rendered);
    return { kind: 'post', items: rendered, components: [], cut: false };
  }

  private toOutgoing(plan: LanePlan, nonce: string | undefined): Outgoing {
    if (plan.kind === 'update') {
      return { kind: 'update', entries: [plan.entry], nonce: nonce ?? nonceForEntries([plan.entry]), run: plan.run };
    }
    const packed = packMessage(plan.items);
    const rendered = plan.items.filter((entry) => packed.items.includes(entry.item));
    const body: FeedMessageBody = {
      ...packed.payload,
      nonce: nonce ?? nonceForEntries(packed.items),
      enforce_nonce: true,
      ...(plan.components.length > 0 ? { components: plan.components } : {}),
    };
    return { kind: 'post', entries: packed.items, rendered, body, writtenAt: this.deps.clock() };
  }

  /** The entries that may share the next message: up to the first that must go alone, or that one alone. */
  private takeCandidates(entries: QueuedEntry[]): QueuedEntry[] {
    const aloneAt = entries.findIndex((entry) => this.sendAlone.has(entry.seq));
    if (aloneAt === 0) return entries.slice(0, 1);
    return aloneAt === -1 ? entries : entries.slice(0, aloneAt);
  }

  private async renderEach(entries: QueuedEntry[]): Promise<RenderedEntry[]> {
    const settings = await this.deps.guilds.get(this.guildId);
    return entries.map((entry) => {
      const route = resolveRoute(settings, entry);
      // A resend goes where it went the first time (its nonce is that channel's); the ping follows today's route.
      const here = route && route !== 'muted' && route.channelId === this.channelId;
      const payload = renderEntry(entry, here ? route : { channelId: this.channelId });
      return { item: entry, payload };
    });
  }

  /** True while a part-filled message should wait for more of a burst (see {@link BatchWindow}). */
  private holdForMore(): boolean {
    const now = this.deps.clock();
    this.holdingSince ??= now;
    const quietUntil = this.lastArrivalAt + this.deps.batchWindow.quietMs;
    const deadline = this.holdingSince + this.deps.batchWindow.maxMs;
    if (now >= quietUntil || now >= deadline) return false;
    this.setTimer('batch', Math.min(quietUntil, deadline) - now);
    return true;
  }

  private async handleFailure(entries: QueuedEntry[], nonce: string, failure: SendFailure): Promise<void> {
    const log = { channelId: this.channelId, guildId: this.guildId, entries: entries.length, reason: failure.reason };
    switch (failure.kind) {
      case 'broken':
        // Nothing was posted: every entry of the lane is parked, kept until an admin changes the routes.
        await this.deps.queue.parkBrokenChannel({
          channelId: this.channelId,
          guildId: this.guildId,
          status: failure.status,
          reason: failure.reason,
          since: this.deps.clock(),
        });
        this.deps.logger.warn(
          { ...log, status: failure.status },
          'channel unusable: its events are kept until the routes change',
        );
        return;
      case 'rejected': {
        const [only] = entries;
        if (entries.length === 1 && only) {
          await this.deps.queue.parkRefused([only.seq], failure.reason, this.deps.clock());
          this.sendAlone.delete(only.seq);
          this.deps.logger.error(
            { ...log, status: failure.status, deliveryId: only.deliveryId },
            'Discord refused a message; its entry is kept aside (see /status)',
          );
        } else {
          // One entry of the batch is at fault: its entries go one by one, through the usual path, to find it.
          await this.deps.queue.release(this.channelId, nonce, this.leaseNow());
          for (const entry of entries) this.sendAlone.add(entry.seq);
          this.deps.logger.warn(log, 'Discord refused a batch; sending its entries one by one');
        }
        this.pokedDuringPass = true;
        return;
      }
      case 'wait':
        this.retryIn(failure.retryAfterMs, log);
        return;
      case 'retry':
      case 'unauthorized': {
        const delay = backoffDelay(this.failures + 1, this.deps.backoff, this.deps.random);
        this.failures = await this.deps.queue.recordFailure(this.channelId, this.guildId, this.deps.clock() + delay);
        this.retryIn(delay, { ...log, failures: this.failures });
        return;
      }
    }
  }

  private retryIn(delayMs: number, log: Record<string, unknown>): void {
    this.deps.logger.warn({ ...log, retryInMs: delayMs }, 'send failed; will retry');
    this.setTimer('retry', delayMs);
  }

  private setTimer(kind: 'batch' | 'retry', ms: number): void {
    this.clearTimer();
    this.timerKind = kind;
    this.timer = this.deps.timers.setTimeout(() => {
      this.timer = undefined;
      this.timerKind = undefined;
      this.poke();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.deps.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerKind = undefined;
  }
}
