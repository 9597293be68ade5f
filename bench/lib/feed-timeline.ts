import type { FakeDiscord, RateLimit } from '../../fakes/discord/index.js';
import { median } from './stats.js';

/**
 * What the fake Discord saw of one channel during a drain: how many messages, how full, and how the rate-limit
 * windows followed one another. This is what explains a drain time that is off its ideal.
 */
export interface ChannelTimeline {
  /** Embeds per message, in order. */
  sizes: number[];
  /** Message creates answered 429 (discord.js should see every limit coming and never get one). */
  rejected: number;
  /** The fake's windows (each starts at its first accepted create): how many, and ms between their starts. */
  windows: number;
  periodsMs: number[];
  /** Creates accepted in each window. */
  perWindow: number[];
}

/** Reads the channel's creates from the fake's request log and replays its fixed windows. */
export function channelTimeline(fake: FakeDiscord, channelId: string, limit: RateLimit): ChannelTimeline {
  const path = `/channels/${channelId}/messages`;
  const creates = fake.requests.filter((request) => request.method === 'POST' && request.path === path);
  const accepted = creates.filter((request) => request.status === 200).map((request) => request.time);
  const starts: number[] = [];
  const perWindow: number[] = [];
  for (const time of accepted) {
    const current = starts.at(-1);
    if (current === undefined || time - current >= limit.windowMs) {
      starts.push(time);
      perWindow.push(0);
    }
    perWindow[perWindow.length - 1] = (perWindow.at(-1) ?? 0) + 1;
  }
  return {
    sizes: fake.messages(channelId).map((message) => message.embeds.length),
    rejected: creates.filter((request) => request.status === 429).length,
    windows: starts.length,
    periodsMs: starts.slice(1).map((start, i) => start - (starts[i] as number)),
    perWindow,
  };
}

/** "1 2 10x48 3": equal neighbours folded. */
function foldRuns(values: readonly number[]): string {
  const runs: Array<{ value: number; count: number }> = [];
  for (const value of values) {
    const last = runs.at(-1);
    if (last?.value === value) last.count += 1;
    else runs.push({ value, count: 1 });
  }
  return runs.map(({ value, count }) => (count > 1 ? `${value}x${count}` : String(value))).join(' ');
}

/** One line: message count and sizes, windows (messages in each) and their median period. */
export function describeTimeline(timeline: ChannelTimeline): string {
  const period = timeline.periodsMs.length > 0 ? `${median(timeline.periodsMs).toFixed(0)} ms` : '-';
  return (
    `${timeline.sizes.length} messages (embeds: ${foldRuns(timeline.sizes)}), ${timeline.windows} windows ` +
    `(messages: ${foldRuns(timeline.perWindow)}), median window period ${period}, ${timeline.rejected} x 429`
  );
}

/** Counts a channel's embeds as they arrive, reading only the messages it has not counted yet. */
export function embedCounter(fake: FakeDiscord, channelIds: readonly string[]): () => number {
  const counted = new Map<string, number>();
  let embeds = 0;
  return () => {
    for (const channelId of channelIds) {
      const messages = fake.messages(channelId);
      for (let i = counted.get(channelId) ?? 0; i < messages.length; i += 1) embeds += messages[i]?.embeds.length ?? 0;
      counted.set(channelId, messages.length);
    }
    return embeds;
  };
}

/**
 * Resolves with performance.now() at the change that brought the channels to `count` embeds: the fake
 * re-checks at every request it handles, so the time is that of the last create, not of a later poll.
 * Handled from the start, so a run that fails before awaiting it leaves no unhandled rejection.
 */
export function whenEmbeds(
  fake: FakeDiscord,
  channelIds: readonly string[],
  count: number,
  timeoutMs: number,
): Promise<number> {
  const counter = embedCounter(fake, channelIds);
  const arrived = fake.waitFor(
    () => (counter() >= count ? performance.now() : undefined),
    timeoutMs,
    `${count} embeds; have ${counter()}`,
  );
  arrived.catch(() => {});
  return arrived;
}
