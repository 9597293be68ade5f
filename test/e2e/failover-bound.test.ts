import { afterEach, describe, expect, it } from 'vitest';

import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import {
  buildChaosWorld,
  chaosFleet,
  checkPosted,
  sendAll,
  waitForEmptyStore,
  type ChaosWorld,
  type SendRecord,
} from './chaos-scenario.js';

/**
 * The failover bound of docs/hosting.md ("Several processes on PostgreSQL", "How long a failover takes"): once
 * the last feed process has (re)started and Discord answers, every waiting entry is posted within 15 s (lease
 * rebalance 0.5 s + idle_session_timeout 10 s for an owner that hung + the previous owner's sends in flight and
 * the new owner's read of the store), plus the time Discord's rate limits need for the backlog: its channel's
 * messages of up to 10 entries at the channel's limit, and every channel's messages at the bot's 50 a second.
 * (A channel whose sends failed first waits for its stored retry time; Discord never fails here.)
 */
const FAILOVER_BOUND_MS = 15_000;
const EMBEDS_PER_MESSAGE = 10;
const GLOBAL_REQUESTS_PER_SECOND = 50;
/** buildChaosWorld's per-channel limit in the fake Discord: 5 messages a second. */
const CHANNEL_MESSAGE_INTERVAL_MS = 1_000 / 5;

const GUILDS = 30;
/** Between a guild's deliveries: ~30 a second over 90 channels, within what the feed may send. */
const GAP_MS = 1_000;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When each delivery first appeared in a message, by the fake Discord's timestamps. */
function postTimes(world: ChaosWorld): Map<string, number> {
  const posted = new Map<string, number>();
  for (const guild of world.guilds) {
    for (const channelId of guild.channels) {
      for (const message of world.discord.messages(channelId)) {
        for (const embed of message.embeds) {
          const id = /Delivery (\S+)$/.exec(embed.footer?.text ?? '')?.[1];
          if (id !== undefined && !posted.has(id)) posted.set(id, Date.parse(message.api.timestamp));
        }
      }
    }
  }
  return posted;
}

/**
 * The documented bound (docs/hosting.md) for the backlog waiting at `from`: 15 s plus what Discord's rate limits
 * take to post it.
 */
function boundFor(record: SendRecord, posted: Map<string, number>, from: number): number {
  const waiting = new Map<string, number>();
  for (const [id, { at, channelId }] of record.answeredAt) {
    if (at <= from && (posted.get(id) ?? Infinity) > from) waiting.set(channelId, (waiting.get(channelId) ?? 0) + 1);
  }
  const messages = [...waiting.values()].map((entries) => Math.ceil(entries / EMBEDS_PER_MESSAGE));
  const busiestChannelMs = Math.max(0, ...messages) * CHANNEL_MESSAGE_INTERVAL_MS;
  const allMs = (messages.reduce((sum, n) => sum + n, 0) * 1_000) / GLOBAL_REQUESTS_PER_SECOND;
  return FAILOVER_BOUND_MS + Math.max(busiestChannelMs, allMs);
}

describe.skipIf(!POSTGRES_URL)('failover bound: feed processes SIGKILLed and restarted on PostgreSQL', () => {
  it('posts every answered delivery once, in order, within the documented bound after the last restart', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const world = await buildChaosWorld(database.url, GUILDS);
    cleanups.push(() => world.discord.close());
    const fleet = chaosFleet(world, database.url);
    cleanups.push(() => fleet.stopAll());

    await Promise.all([
      fleet.start('intake-1', 'intake'),
      fleet.start('intake-2', 'intake'),
      fleet.start('intake-3', 'intake'),
      fleet.start('feed-1', 'feed'),
      fleet.start('feed-2', 'feed'),
    ]);
    let sending = true;
    const sent = sendAll(fleet, world, 9_999, GAP_MS, () => !sending);
    await sleep(3_000);

    // One feed process dies and comes back: its partitions go to the other, then half of them back.
    await fleet.kill('feed-1');
    await fleet.start('feed-1', 'feed');
    await sleep(2_000);
    // One dies while the other is starting again (its lease session new, its lanes not all running yet).
    await fleet.kill('feed-1');
    const restarting = fleet.start('feed-1', 'feed');
    await sleep(500);
    await fleet.kill('feed-2');
    await restarting;
    await fleet.start('feed-2', 'feed');
    await sleep(2_000);
    // Both at once: no partition has an owner while deliveries keep coming; then they stop and both come back.
    await Promise.all([fleet.kill('feed-1'), fleet.kill('feed-2')]);
    await sleep(2_000);
    sending = false;
    await Promise.all([fleet.start('feed-1', 'feed'), fleet.start('feed-2', 'feed')]);
    const lastRestartAt = Date.now();
    const record = await sent;

    const posted = () => postTimes(world);
    const bound = boundFor(record, posted(), lastRestartAt);
    const deadline = lastRestartAt + bound;
    while (Date.now() < deadline && [...record.answeredAt.keys()].some((id) => !posted().has(id))) await sleep(200);

    const late = [...record.answeredAt.keys()].filter((id) => (posted().get(id) ?? Infinity) > deadline);
    expect({ late: late.length, bound }).toEqual({ late: 0, bound });
    expect(checkPosted(world, record)).toEqual({ lost: 0, doubled: 0, outOfOrder: 0 });
    // Nothing left open (held or waiting) that the senders did not see answered.
    await waitForEmptyStore(fleet, 5_000);
    expect(world.discord.violations).toEqual([]);
  }, 90_000);
});
