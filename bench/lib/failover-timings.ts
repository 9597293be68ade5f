import { partitionOf } from '../../src/store/coordination.js';
import type { ChaosWorld, SendRecord } from '../../test/e2e/chaos-scenario.js';
import type { BotProcess } from '../../test/e2e/fleet.js';
import { formatNumber, percentile } from './stats.js';

/** One SIGKILL of a feed process, and the processes that took its partitions after it. */
export interface Kill {
  victim: string;
  pid: number;
  killedAt: number;
  partitions: ReadonlySet<number>;
  /** The other feed process, alive through the kill. */
  survivor: BotProcess;
  /** The victim started again, and when it listened (Date.now()). */
  restarted?: BotProcess;
  listeningAt?: number;
}

/** Per channel timed after one kill: to its first message, and from when it had work to that message. */
export interface ChannelTiming {
  channelId: string;
  toFirstPostMs: number;
  fromWorkMs: number;
}

/** When each delivery first appeared in a message (its embed's footer names it), per the fake's timestamps. */
export function postTimes(world: ChaosWorld): Map<string, number> {
  const posted = new Map<string, number>();
  for (const guild of world.guilds) {
    for (const channelId of guild.channels) {
      for (const message of world.discord.messages(channelId)) {
        const at = Date.parse(message.api.timestamp);
        for (const embed of message.embeds) {
          const id = /Delivery (\S+)$/.exec(embed.footer?.text ?? '')?.[1];
          if (id !== undefined && !posted.has(id)) posted.set(id, at);
        }
      }
    }
  }
  return posted;
}

export type Answers = ReadonlyMap<string, ReadonlyArray<{ id: string; at: number }>>;

/** Per channel, its deliveries and when each was answered 2xx. */
export function answersByChannel(record: SendRecord): Answers {
  const byChannel = new Map<string, Array<{ id: string; at: number }>>();
  for (const [id, { at, channelId }] of record.answeredAt) {
    const list = byChannel.get(channelId) ?? [];
    list.push({ id, at });
    byChannel.set(channelId, list);
  }
  return byChannel;
}

/**
 * Each channel that had work at the kill or got some after it, timed: of the victim's guilds (`victims`), or of
 * the other feed process's (the peer: the same measure for channels whose owner lived). A channel that never
 * posted again has no timing (`toFirstPostMs` Infinity).
 */
export function timeKill(
  world: ChaosWorld,
  answersOf: Answers,
  posted: Map<string, number>,
  kill: Kill,
  victims: boolean,
): ChannelTiming[] {
  const timings: ChannelTiming[] = [];
  for (const guild of world.guilds) {
    if (kill.partitions.has(partitionOf(guild.guildId)) !== victims) continue;
    for (const channelId of guild.channels) {
      const answers = answersOf.get(channelId) ?? [];
      const waitingAtKill = answers.some(
        ({ id, at }) => at < kill.killedAt && (posted.get(id) ?? Infinity) >= kill.killedAt,
      );
      const arrivals = answers.filter(({ at }) => at >= kill.killedAt).map(({ at }) => at);
      if (!waitingAtKill && arrivals.length === 0) continue;
      const first = world.discord
        .messages(channelId)
        .map((message) => Date.parse(message.api.timestamp))
        .find((at) => at >= kill.killedAt);
      if (first === undefined) {
        timings.push({ channelId, toFirstPostMs: Infinity, fromWorkMs: Infinity });
        continue;
      }
      const workFrom = waitingAtKill ? kill.killedAt : Math.min(...arrivals);
      timings.push({ channelId, toFirstPostMs: first - kill.killedAt, fromWorkMs: Math.max(0, first - workFrom) });
    }
  }
  return timings;
}

/** Timings of several kills together; a channel that never posted counts as infinitely late. */
export class Timings {
  readonly toFirstPost: number[] = [];
  readonly fromWork: number[] = [];
  neverPosted = 0;

  add(timings: readonly ChannelTiming[]): this {
    for (const timing of timings) {
      this.toFirstPost.push(timing.toFirstPostMs);
      if (Number.isFinite(timing.toFirstPostMs)) this.fromWork.push(timing.fromWorkMs);
      else this.neverPosted += 1;
    }
    return this;
  }

  get p99(): number {
    return this.toFirstPost.length === 0 ? Number.NaN : percentile(this.toFirstPost, 99);
  }

  describe(): string {
    return (
      `${this.toFirstPost.length} channels, kill to first post ${summarize(this.toFirstPost)}` +
      `${this.neverPosted > 0 ? ` (${this.neverPosted} never posted)` : ''}; ` +
      `from the kill or the channel's next delivery, whichever later: ${summarize(this.fromWork)}`
    );
  }
}

export function summarize(values: readonly number[]): string {
  if (values.length === 0) return 'none';
  return (
    `p50 ${formatNumber(percentile(values, 50))} ms, p99 ${formatNumber(percentile(values, 99))} ms, ` +
    `max ${formatNumber(Math.max(...values))} ms`
  );
}
