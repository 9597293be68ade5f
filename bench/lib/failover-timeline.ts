import type { ChaosWorld } from '../../test/e2e/chaos-scenario.js';
import type { BotProcess } from '../../test/e2e/fleet.js';
import type { ChannelTiming, Kill } from './failover-timings.js';
import { formatNumber, percentile } from './stats.js';

/**
 * What a feed process logs that a failover is made of (src/store/postgres/pg-leases.ts, pg-shard-share.ts,
 * src/feed/feed-worker.ts, src/gateway-role.ts).
 */
const TIMELINE_MESSAGES =
  /feed partitions|lanes started for gained partitions|lease session|gateway shards|runs the deployment's jobs|listening/;
/** First posts are counted in steps of this much after the kill. */
const STEP_MS = 500;

interface Line {
  at: number;
  who: string;
  text: string;
}

/** One log line as the timeline says it: the message and the few fields that matter to a hand-over. */
function describeLine(line: Record<string, unknown>): string {
  const msg = String(line['msg']);
  const partitions = line['partitions'];
  const channels = line['channels'];
  const parts = [msg];
  if (Array.isArray(partitions)) parts.push(`${partitions.length} partitions`);
  else if (typeof partitions === 'number') parts.push(`of ${partitions} partitions`);
  if (Array.isArray(channels)) parts.push(`${channels.length} channels`);
  if (typeof line['members'] === 'number') parts.push(`members ${line['members']}`);
  if (typeof line['sinceMs'] === 'number') parts.push(`silent ${line['sinceMs']} ms`);
  return parts.join(', ');
}

function linesOf(bot: BotProcess, who: string, from: number, to: number): Line[] {
  return bot.lines
    .filter((line) => typeof line['time'] === 'number' && TIMELINE_MESSAGES.test(String(line['msg'])))
    .filter((line) => (line['time'] as number) >= from && (line['time'] as number) < to)
    .map((line) => ({ at: line['time'] as number, who, text: describeLine(line) }));
}

/** When each channel's lane started after the kill, and in which process (from 'lanes started' lines). */
function laneStarts(kill: Kill, to: number): Map<string, { at: number; who: string }> {
  const starts = new Map<string, { at: number; who: string }>();
  const bots: Array<[BotProcess | undefined, string]> = [
    [kill.survivor, kill.survivor.name],
    [kill.restarted, `${kill.victim} (restarted)`],
  ];
  for (const [bot, who] of bots) {
    for (const line of bot?.lines ?? []) {
      const at = line['time'];
      if (line['msg'] !== 'lanes started for gained partitions' || typeof at !== 'number') continue;
      if (at < kill.killedAt || at >= to) continue;
      for (const channelId of line['channels'] as string[]) {
        const known = starts.get(channelId);
        if (!known || known.at > at) starts.set(channelId, { at, who });
      }
    }
  }
  return starts;
}

function channelName(world: ChaosWorld, channelId: string): string {
  const guild = world.guilds.find((candidate) => candidate.channels.includes(channelId));
  return guild ? `g${guild.index}/c${guild.channels.indexOf(channelId)}` : channelId;
}

const at = (ms: number) => `+${formatNumber(Math.round(ms)).padStart(6)} ms`;

/**
 * A kill's timeline, relative to the kill: the hand-over as the feed processes logged it (partitions taken and
 * given back, lanes started, the restarted process listening), then the victim's channels: when their lanes
 * started, how many first posted in each half second, and the slowest ones in detail.
 */
export function describeTimeline(
  world: ChaosWorld,
  kill: Kill,
  channels: readonly ChannelTiming[],
  to: number,
): string[] {
  const out: string[] = [`timeline: ${kill.victim} (pid ${kill.pid}, ${kill.partitions.size} partitions) SIGKILLed`];
  const events = [
    ...linesOf(kill.survivor, kill.survivor.name, kill.killedAt, to),
    ...(kill.restarted ? linesOf(kill.restarted, `${kill.victim} (restarted)`, kill.killedAt, to) : []),
  ].sort((a, b) => a.at - b.at);
  for (const event of events) out.push(`  ${at(event.at - kill.killedAt)}  ${event.who}: ${event.text}`);
  if (kill.listeningAt !== undefined) {
    out.push(`  ${at(kill.listeningAt - kill.killedAt)}  (the benchmark saw ${kill.victim} listening again)`);
  }

  const starts = laneStarts(kill, to);
  const started = channels.flatMap((timing) => {
    const start = starts.get(timing.channelId);
    return start ? [start.at - kill.killedAt] : [];
  });
  if (started.length > 0) {
    out.push(
      `  lanes of its ${channels.length} timed channels started: ${started.length}, ` +
        `p50 ${at(percentile(started, 50))}, max ${at(Math.max(...started))}` +
        ` (the rest had no work at the hand-over and started on a new delivery)`,
    );
  }
  const steps = new Map<number, number>();
  for (const timing of channels) {
    const step = Number.isFinite(timing.toFirstPostMs) ? Math.floor(timing.toFirstPostMs / STEP_MS) : -1;
    steps.set(step, (steps.get(step) ?? 0) + 1);
  }
  const histogram = [...steps]
    .sort((a, b) => (a[0] < 0 ? 1 : b[0] < 0 ? -1 : a[0] - b[0]))
    .map(([step, n]) =>
      step < 0 ? `never: ${n}` : `${(step * STEP_MS) / 1000}-${((step + 1) * STEP_MS) / 1000} s: ${n}`,
    );
  out.push(`  first posts after the kill: ${histogram.join(', ')}`);
  out.push(
    `  messages a second in every channel from the kill on (the bot's limit is 50): ${rateAfter(world, kill, to)}`,
  );
  const slowest = [...channels].sort((a, b) => b.toFirstPostMs - a.toFirstPostMs).slice(0, 5);
  for (const timing of slowest) {
    const start = starts.get(timing.channelId);
    out.push(
      `    slow: ${channelName(world, timing.channelId)} (${timing.channelId}) first post ${at(timing.toFirstPostMs)} ` +
        `(its work from ${at(timing.toFirstPostMs - timing.fromWorkMs)}); lane started ` +
        `${start ? `${at(start.at - kill.killedAt)} in ${start.who}` : 'on a delivery (no gained-partition rescan)'}`,
    );
    out.push(`      its posts the fake Discord received from the kill on: ${postsTo(world, kill, timing)}`);
  }
  return out;
}

/** The message creates a channel got from the kill to its first post, with the status each was answered. */
function postsTo(world: ChaosWorld, kill: Kill, timing: ChannelTiming): string {
  const until = kill.killedAt + timing.toFirstPostMs;
  const path = `/channels/${timing.channelId}/messages`;
  const posts = world.discord.requests.filter(
    (request) =>
      request.method === 'POST' && request.path === path && request.time >= kill.killedAt && request.time <= until,
  );
  if (posts.length === 0) return 'none';
  return posts.map((request) => `${at(request.time - kill.killedAt)} ${request.status ?? 'open'}`).join(', ');
}

/** Messages posted in each second after the kill, in all channels (Discord's global limit shared by the fleet). */
function rateAfter(world: ChaosWorld, kill: Kill, to: number): string {
  const seconds = Math.min(10, Math.ceil((Math.min(to, Date.now()) - kill.killedAt) / 1000));
  const counts = Array.from({ length: Math.max(0, seconds) }, () => 0);
  for (const guild of world.guilds) {
    for (const channelId of guild.channels) {
      for (const message of world.discord.messages(channelId)) {
        const second = Math.floor((Date.parse(message.api.timestamp) - kill.killedAt) / 1000);
        if (second >= 0 && second < counts.length) counts[second] = (counts[second] ?? 0) + 1;
      }
    }
  }
  return counts.join(', ');
}
