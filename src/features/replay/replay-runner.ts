import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../../base/backoff.js';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { Timers } from '../../base/timers.js';
import type { PostFinder } from '../../discord/posting/find-post.js';
import { postWrittenDown } from '../../discord/posting/post-once.js';
import type { OutgoingMessage, Poster } from '../../discord/posting/poster.js';
import { toSendFailure } from '../../discord/posting/send-failure.js';
import type { SendPacer } from '../../feed/send-pacer.js';
import type { GuildSettingsStore } from '../../store/guild-settings.js';
import { resolveRoute } from '../../store/routing-rules.js';
import type { Job } from '../feature.js';
import { composeReplayMessage } from './replay-message.js';
import type { ReplayRun, ReplaySource, ReplayStore } from './store/replay-store.js';

/** How many stored deliveries a run reads at a time, to find the next that go to its channel. */
const SOURCE_PAGE = 200;
/** The most events one replayed message carries (Discord's 10 embeds; fewer when they are long). */
const EVENTS_PER_MESSAGE = 10;

/** What the runner uses. */
export interface ReplayRunnerDeps {
  store: ReplayStore;
  guilds: Pick<GuildSettingsStore, 'get'>;
  poster: Pick<Poster, 'post'>;
  findPosted?: PostFinder | undefined;
  nonceWindowMs?: number | undefined;
  /**
   * The feed's share of Discord's rate: a replay's send takes only what the lanes leave (SendPacer.takeSpare).
   * Absent (a test of the runner alone): each send goes at once.
   */
  pacer?: SendPacer | undefined;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  backoff?: BackoffPolicy;
  random?: () => number;
}

/** What a step leaves the run's loop to do. */
type Next = 'more' | 'done' | { retryMs: number };

/**
 * Posts the running replays, each into its channel in store order, one message at a time, each written down (its
 * events and nonce in the store) before it is sent: a restart, or another process taking the gateway, sends that
 * message again under its nonce (or finds it past Discord's nonce window), then goes on from the stored cursor. Each
 * run is a loop of its own: a run Discord fails or refuses waits or ends alone, and the feed's lanes never wait for
 * a replay (the pacer's spare sends). A job: it runs where the gateway is, one process per deployment.
 */
export class ReplayRunner implements Job {
  private readonly loops = new Map<string, Promise<void>>();
  private readonly sleeps = new Set<() => void>();
  private stopping = new AbortController();
  private running = false;
  /** The runs' resumption at start: tried again while the store fails, so no stored run is left waiting. */
  private resuming: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ReplayRunnerDeps) {}

  start(): void {
    this.running = true;
    this.stopping = new AbortController();
    this.resuming = this.resumeRuns();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    for (const wake of this.sleeps) wake();
    await this.resuming;
    await Promise.all(this.loops.values());
  }

  /** Every run the store holds as running goes on here (after a restart, or the gateway moving here). */
  private async resumeRuns(): Promise<void> {
    for (let failures = 1; this.running; failures += 1) {
      try {
        for (const run of await this.deps.store.listRunning()) this.poke(run.runId);
        return;
      } catch (error) {
        const retryMs = backoffDelay(failures, this.deps.backoff ?? DEFAULT_BACKOFF, this.deps.random);
        this.deps.logger.warn({ err: error, retryInMs: retryMs }, 'reading the running replays failed; reading again');
        await this.sleep(retryMs);
      }
    }
  }

  /** A run was started (or may have work again): its loop runs, if it is not running already. */
  poke(runId: string): void {
    if (!this.running || this.loops.has(runId)) return;
    const loop = this.loop(runId).finally(() => this.loops.delete(runId));
    this.loops.set(runId, loop);
  }

  /** Resolves once the stored runs were resumed and no run has a loop here (tests). */
  async idle(): Promise<void> {
    await this.resuming;
    while (this.loops.size > 0) await Promise.all(this.loops.values());
  }

  private async loop(runId: string): Promise<void> {
    let failures = 0;
    while (this.running) {
      let next: Next;
      try {
        next = await this.step(runId);
        failures = 0;
      } catch (error) {
        failures += 1;
        const retryMs = backoffDelay(failures, this.deps.backoff ?? DEFAULT_BACKOFF, this.deps.random);
        this.deps.logger.warn(
          { runId, err: error, failures, retryInMs: retryMs },
          'a replay step failed; trying again',
        );
        next = { retryMs };
      }
      if (next === 'done') return;
      if (next !== 'more') await this.sleep(next.retryMs);
    }
  }

  /** The run's next message: the one written down before, or the next events that go to its channel. */
  private async step(runId: string): Promise<Next> {
    const { store, clock } = this.deps;
    const run = await store.runOf(runId);
    if (!run || run.endedAt !== null) return 'done';
    if (run.written) {
      const body = parseBody(run.written.message);
      if (!body) {
        await store.end(runId, clock(), 'its written-down message could not be read');
        return 'done';
      }
      return this.send(run, run.written.nonce, body, run.written.writtenAt);
    }
    const sources = await store.sources(run, SOURCE_PAGE);
    const last = sources.at(-1);
    if (!last) {
      await store.end(runId, clock(), null);
      this.deps.logger.info({ runId, channelId: run.channelId, posted: run.posted }, 'replay done');
      return 'done';
    }
    const wanted = await this.routedHere(run, sources);
    if (wanted.length === 0) {
      await store.advance(runId, last.seq);
      return 'more';
    }
    const message = composeReplayMessage(runId, wanted.slice(0, EVENTS_PER_MESSAGE));
    const upToSeq = message.events.at(-1)?.seq ?? last.seq;
    const written = { nonce: message.nonce, message: JSON.stringify(message.body), writtenAt: clock(), upToSeq };
    // Another process wrote this step down meanwhile: read it again, and send what it wrote.
    if (!(await store.writeDown(run, written, message.events))) return 'more';
    return this.send(run, message.nonce, message.body, written.writtenAt);
  }

  /**
   * The sources today's routes send to the run's channel, leaving out those posted there live already (a replay
   * adds what the channel missed).
   */
  private async routedHere(run: ReplayRun, sources: readonly ReplaySource[]): Promise<ReplaySource[]> {
    const settings = await this.deps.guilds.get(run.guildId);
    return sources.filter((source) => {
      if (source.channelId === run.channelId && !source.muted) return false;
      const route = resolveRoute(settings, source);
      return route !== null && route !== 'muted' && route.channelId === run.channelId;
    });
  }

  private async send(run: ReplayRun, nonce: string, body: OutgoingMessage, writtenAt: number): Promise<Next> {
    const { store, clock, pacer } = this.deps;
    if (pacer && !(await pacer.takeSpare(this.stopping.signal))) return 'more';
    try {
      await postWrittenDown(this.deps, run.channelId, body, { nonce, writtenAt });
    } catch (error) {
      const failure = toSendFailure(error);
      if (failure.kind === 'broken' || failure.kind === 'rejected') {
        // The channel (or this message) is refused: the run stops, what it posted stays posted, and an admin may
        // start another once the channel is fixed (it goes on with what this one did not post).
        await store.end(run.runId, clock(), failure.reason);
        this.deps.logger.warn({ runId: run.runId, channelId: run.channelId, reason: failure.reason }, 'replay stopped');
        return 'done';
      }
      if (failure.kind === 'wait') return { retryMs: failure.retryAfterMs };
      throw error;
    }
    await store.confirm(run.runId, nonce, clock());
    return 'more';
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.deps.timers.clearTimeout(handle);
        this.sleeps.delete(wake);
        resolve();
      };
      const handle = this.deps.timers.setTimeout(wake, ms);
      this.sleeps.add(wake);
    });
  }
}

/** A written-down body, as {@link ReplayRunner} wrote it; undefined when it is not one (edited by hand). */
function parseBody(text: string): OutgoingMessage | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === 'object' && body !== null && Array.isArray((body as OutgoingMessage).embeds)) {
      return body as OutgoingMessage;
    }
  } catch {
    // Not JSON: said by the caller.
  }
  return undefined;
}
