import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

import { bridgeVersion } from './version.js';

/** What the entries gauge reads on each scrape: a count the store answers from its indexes. */
export interface EntryCountsSource {
  (): Promise<{ waiting: number; held: number; muted: number }>;
}

/** What the set-aside gauge reads on each scrape: the items each batch job set aside, by job. */
export interface SetAsideCountsSource {
  (): Promise<Readonly<Record<string, number>>>;
}

/** What the lease gauge reads on each scrape: whether this process holds the gateway, how many partitions. */
export interface LeaseSource {
  (): { gateway: boolean; feedPartitions: number; gatewayShards: number };
}

/**
 * How a Discord send or edit went, in fixed words: `posted`, `edited`; an edit of a message deleted meanwhile
 * (`gone`); and the poster's failures as the lane treats them: `failed_retryable` (5xx, network: backoff),
 * `failed_rate_limited` (a 429 discord.js did not absorb: wait), `failed_channel_held` (the channel refuses the
 * bot: its entries are held), `failed_entry_held` (Discord refused the message: its entry is held),
 * `failed_unauthorized` (the token is refused).
 */
export const DISCORD_SEND_OUTCOMES = [
  'posted',
  'edited',
  'gone',
  'failed_retryable',
  'failed_rate_limited',
  'failed_channel_held',
  'failed_entry_held',
  'failed_unauthorized',
] as const;
export type DiscordSendOutcome = (typeof DISCORD_SEND_OUTCOMES)[number];

/**
 * The jobs that work guild by guild, each guild on its own: a guild whose turn failed backs off (it is tried again
 * later, later each time) while the others go on. `bridge_guild_backoffs_total{task}` counts those backoffs.
 */
export const GUILD_JOBS = [
  'digest',
  'duty_board',
  'coverage',
  'session_threads',
  'health_alert',
  'modcall_escalation',
] as const;
export type GuildJob = (typeof GUILD_JOBS)[number];

/** The ack histogram's buckets, in seconds: an ack is a store write, a few ms, and the service waits 5 s. */
const ACK_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/**
 * The accept-to-post histogram's buckets, in seconds: under a second when Discord keeps up, seconds to minutes
 * behind a backlog or its rate limits, hours through an outage, a day for a held entry an admin sent on.
 */
const POST_BUCKETS = [0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21_600, 86_400];

/** A delivery posted: its event's label (a fixed word, see {@link BridgeMetrics.knowPostedEvents}) and its wait. */
export interface PostedDelivery {
  event: string;
  /** From its acceptance (received) to the store's record of its post. */
  seconds: number;
}

/**
 * One bot's metrics (GET /metrics, Prometheus text format): a registry of its own, never prom-client's global
 * one, since tests and the demo run several bots in one process.
 *
 * The registry always exists and the feed counts into it whether or not METRICS_PORT is set: a counter is a
 * number in memory, so nothing breaks or changes when metrics are off. What costs something beyond that is done
 * only when the registry is served: the intake times and counts its answers (bot.ts: its hot path stays as short
 * as it can be otherwise), the gauges read the store only when scraped, and {@link collectProcessMetrics} (an
 * event-loop-delay monitor, a GC observer) is started only by the process that serves them. Label values are fixed words or ids, never
 * a secret, a name or anything a payload said.
 */
export class BridgeMetrics {
  readonly registry = new Registry();
  private readonly deliveries: Counter<'outcome'>;
  private readonly ackSeconds: Histogram;
  private readonly sends: Counter<'outcome'>;
  private readonly rateLimitedCount: Counter;
  private readonly backoffs: Counter;
  private readonly guildBackoffs: Counter<'task'>;
  private readonly postSeconds: Histogram<'event'>;
  private processMetrics = false;

  constructor() {
    const registers = [this.registry];
    this.deliveries = new Counter({
      name: 'bridge_deliveries_total',
      help: 'Webhook deliveries answered, by outcome: accepted, duplicate, ping, or the refusal code answered.',
      labelNames: ['outcome'],
      registers,
    });
    this.ackSeconds = new Histogram({
      name: 'bridge_ack_seconds',
      help: "Time from a delivery's request to the intake's answer, in seconds.",
      buckets: ACK_BUCKETS,
      registers,
    });
    this.sends = new Counter({
      name: 'bridge_discord_sends_total',
      help: 'Messages posted and edited in Discord, by outcome (failures as the feed treats them).',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of DISCORD_SEND_OUTCOMES) this.sends.labels(outcome).inc(0);
    this.rateLimitedCount = new Counter({
      name: 'bridge_discord_rate_limited_total',
      help: 'Answers of Discord with status 429 (rate limited), whether discord.js waited them out or not.',
      registers,
    });
    this.backoffs = new Counter({
      name: 'bridge_lane_backoffs_total',
      help: "Times a channel's lane backed off before retrying (Discord failed, rate-limited, or the store failed).",
      registers,
    });
    this.guildBackoffs = new Counter({
      name: 'bridge_guild_backoffs_total',
      help: "Times a guild's turn of a job failed and the guild backed off, by job; the other guilds went on.",
      labelNames: ['task'],
      registers,
    });
    for (const job of GUILD_JOBS) this.guildBackoffs.labels(job).inc(0);
    this.postSeconds = new Histogram({
      name: 'bridge_delivery_post_seconds',
      help: 'Time from accepting a delivery to recording it posted in Discord, in seconds, by event; its _count counts deliveries posted (a message carries up to 10).',
      labelNames: ['event'],
      buckets: POST_BUCKETS,
      registers,
    });
    // Prometheus' build-info convention: always 1, the labels say what runs (a version seen changing is an upgrade).
    new Gauge({
      name: 'bridge_build_info',
      help: "The bot's version (package.json, CHANGELOG.md) and the Node it runs on; always 1.",
      labelNames: ['version', 'node'],
      registers,
    })
      .labels(bridgeVersion(), process.version)
      .set(1);
  }

  /** The outcomes counted from 0, so a rate over them exists before the first of each. */
  knowDeliveryOutcomes(outcomes: readonly string[]): void {
    for (const outcome of outcomes) this.deliveries.labels(outcome).inc(0);
  }

  /** A delivery was answered with `outcome`, `seconds` after its request began. */
  delivery(outcome: string, seconds: number): void {
    this.deliveries.labels(outcome).inc();
    this.ackSeconds.observe(seconds);
  }

  /** The events posted deliveries are counted by, each shown from 0 (the label's every value, fixed words). */
  knowPostedEvents(events: readonly string[]): void {
    for (const event of events) this.postSeconds.zero({ event });
  }

  /** A message's deliveries were recorded posted: each one counted, with its time from acceptance. */
  deliveriesPosted(deliveries: readonly PostedDelivery[]): void {
    for (const { event, seconds } of deliveries) this.postSeconds.labels(event).observe(Math.max(0, seconds));
  }

  discordSend(outcome: DiscordSendOutcome): void {
    this.sends.labels(outcome).inc();
  }

  rateLimited(): void {
    this.rateLimitedCount.inc();
  }

  laneBackoff(): void {
    this.backoffs.inc();
  }

  /** A guild's turn of `job` failed: the guild backs off. */
  guildBackoff(job: GuildJob): void {
    this.guildBackoffs.labels(job).inc();
  }

  /** `bridge_entries{state}`, read from `count` at each scrape. */
  watchEntries(count: EntryCountsSource): void {
    new Gauge({
      name: 'bridge_entries',
      help: 'Entries in the feed queue now, by state: waiting (to be posted), held (until an admin acts), muted.',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        // A store that fails leaves the gauge empty for this scrape; /healthz says why.
        const counts = await count().catch(() => undefined);
        this.reset();
        if (!counts) return;
        for (const state of ['waiting', 'held', 'muted'] as const) this.labels(state).set(counts[state]);
      },
    });
  }

  /** `bridge_set_aside_items{task}`, read from `count` at each scrape. */
  watchSetAside(count: SetAsideCountsSource): void {
    new Gauge({
      name: 'bridge_set_aside_items',
      help:
        'Items the batch jobs set aside now, by job: record-writer (deliveries not merged into the community record), ' +
        "record-sweep (guilds whose record's old rows could not be deleted). Each is retried with backoff.",
      labelNames: ['task'],
      registers: [this.registry],
      async collect() {
        // A store that fails leaves the gauge empty for this scrape, as bridge_entries.
        const counts = await count().catch(() => undefined);
        this.reset();
        if (!counts) return;
        for (const [job, n] of Object.entries(counts)) this.labels(job).set(n);
      },
    });
  }

  /**
   * `bridge_oldest_waiting_seconds`: how long the first waiting entry has waited (0 when none), read from the store
   * at each scrape; absent from a scrape whose read failed.
   */
  watchOldestWaiting(receivedAt: () => Promise<number | undefined>, now: () => number): void {
    this.watchAge(
      'bridge_oldest_waiting_seconds',
      'Seconds since the oldest delivery waiting to be posted was received (0: none waits). Store-wide.',
      receivedAt,
      now,
    );
  }

  /**
   * `bridge_record_lag_seconds`: how far the community record's writer is behind (/healthz's `record_lag_s`): since
   * the oldest delivery not yet merged into the record was received, 0 when none waits.
   */
  watchRecordLag(oldestUnrecordedAt: () => Promise<number | undefined>, now: () => number): void {
    this.watchAge(
      'bridge_record_lag_seconds',
      'Seconds since the oldest delivery not yet merged into the community record was received (0: none). Store-wide.',
      oldestUnrecordedAt,
      now,
    );
  }

  private watchAge(name: string, help: string, since: () => Promise<number | undefined>, now: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        const at = await since().then(
          (value) => ({ value }),
          () => undefined,
        );
        // A store that fails leaves no sample in this scrape (an unlabelled gauge would say 0); /healthz says why.
        if (!at) {
          this.remove();
          return;
        }
        this.set(at.value === undefined ? 0 : Math.max(0, (now() - at.value) / 1000));
      },
    });
  }

  /**
   * `bridge_gateway_shard_ready{shard}`: 1 for each gateway shard that is ready, 0 for one that is not (connecting,
   * resuming, down for good), for the shards this process opened: every one with one process (SQLite), its share
   * of them with several (PostgreSQL); no series in a process that holds none.
   */
  watchGatewayShards(readyByShard: () => Record<string, boolean> | undefined): void {
    new Gauge({
      name: 'bridge_gateway_shard_ready',
      help: 'Each gateway shard of this process: 1 ready, 0 not (connecting, resuming, or down for good: /healthz says which).',
      labelNames: ['shard'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [shard, ready] of Object.entries(readyByShard() ?? {})) this.labels(shard).set(ready ? 1 : 0);
      },
    });
  }

  /**
   * `bridge_lease_owned{lease}`: the gateway lease (1/0: the deployment's jobs, and on SQLite the whole gateway),
   * the feed partitions and the gateway shards this process holds.
   */
  watchLeases(leases: LeaseSource): void {
    new Gauge({
      name: 'bridge_lease_owned',
      help:
        'Leases this process holds: gateway 1 or 0 (the jobs run once per deployment), feed_partitions the number ' +
        'of the 64 partitions it posts, gateway_shards the number of gateway shards it opened.',
      labelNames: ['lease'],
      registers: [this.registry],
      collect() {
        const now = leases();
        this.labels('gateway').set(now.gateway ? 1 : 0);
        this.labels('feed_partitions').set(now.feedPartitions);
        this.labels('gateway_shards').set(now.gatewayShards);
      },
    });
  }

  /** `bridge_poller_budget_remaining`: the release poller's requests left in the minute, where it runs. */
  watchPollerBudget(remaining: () => number): void {
    new Gauge({
      name: 'bridge_poller_budget_remaining',
      help: "Requests the release poller may still send in the current minute (the lowest of the developer keys')",
      registers: [this.registry],
      collect() {
        this.set(remaining());
      },
    });
  }

  /** prom-client's process metrics (memory, CPU, event loop lag, GC) in this registry; once. */
  collectProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  /** The text a scrape answers, and its Content-Type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
