/**
 * The gateway lease on PostgreSQL lost and retaken (a blip, a failover: the lease session's server process ends)
 * while logins, jobs' runs and their stops are under way: the real bot against the fake Discord, in this process,
 * its lease session ended with pg_terminate_backend.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { chatInputCommand, commandOption } from '../../fakes/discord/index.js';
import { caseCreated, sessionStarted, threadShowing } from '../features/threads/e2e/session-threads-fixtures.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { countingTimers } from '../helpers/counting-timers.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { postedDeliveryIds, runFeedCommand, startFeedHarness, type FeedHarness } from './feed-harness.js';

/** The advisory lock (class, object) of the gateway's shard 0, as src/store/postgres/partition-locks.ts takes it. */
const SHARD_LOCK = [0x42524453, 0] as const;
/** The bot's lease session, as src/store/postgres/open-postgres-store.ts names it (the bot runs in this process). */
const LEASE_SESSION = `service-discord-bridge-leases-${process.pid}`;
/** Delays no other timer of the bot uses: each job's runs are counted by them. */
const ESCALATION_CHECK_MS = 111;
const THREADS_CHECK_MS = 137;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A database for the bot, and a connection of the test's own to it. */
async function databaseWithAdmin(): Promise<{ url: string; admin: pg.Client }> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  cleanups.push(() => admin.end());
  return { url: database.url, admin };
}

/** Ends the bot's lease session on the server (as a failover would) and waits until its process has exited. */
async function endLeaseSession(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ ended: boolean }>(
    `SELECT pg_terminate_backend(pid, 5000) AS ended FROM pg_stat_activity
     WHERE application_name = $1 AND datname = current_database()`,
    [LEASE_SESSION],
  );
  expect(rows.map((row) => row.ended)).toEqual([true]);
}

/** How many times the bot logged taking the gateway. */
const gatewaysTaken = (h: FeedHarness) =>
  h.logs.lines.filter((line) => line.includes("this process runs the deployment's jobs")).length;

/** A modcall of a caller of its own (one caller's calls would be one card): one post each. */
function modcall(id: string) {
  const call = SAMPLE_DELIVERIES.modcall;
  return { ...call, id, data: { ...call.data, caller: { robloxId: id, name: id } } };
}

describe.skipIf(!POSTGRES_URL)('the gateway lease on PostgreSQL, lost and retaken', () => {
  it('flapped three times while the jobs wait on the store: each job runs once, the threads follow, nothing twice', async () => {
    const { url, admin } = await databaseWithAdmin();
    const counted = countingTimers();
    const h = await startFeedHarness({
      config: { STORE_URL: url },
      leases: { rebalanceMs: 100, idleTimeoutMs: 5_000 },
      escalationTimings: { checkEveryMs: ESCALATION_CHECK_MS },
      threadTimings: { minUpdateGapMs: 50, checkEveryMs: THREADS_CHECK_MS },
      timers: counted.timers,
    });
    cleanups.push(() => h.stop());
    const threadsOn = await runFeedCommand(h, 'threads', [
      commandOption.string('event', 'session'),
      commandOption.boolean('on', true),
    ]);
    expect(threadsOn).toContain('opens a thread');
    const base = Date.now() - 30 * 60_000;
    expect(await h.deliver(sessionStarted(base))).toBe(204);
    const [card] = await h.discord.waitForMessages(h.channel('sessions'), 1);
    const threadId = card?.id ?? '';
    await h.discord.waitFor(() => h.discord.channel(threadId) !== undefined, 15_000, 'the thread');
    expect(await h.deliver(caseCreated(4101, 'ban', base + 60_000))).toBe(204);
    await threadShowing(h, threadId, (messages) => /#4101/.test(messages[0]?.embeds[0]?.description ?? ''), 'case 1');

    const sent: string[] = [];
    const traffic = async (round: number) => {
      for (let n = 0; n < 3; n += 1) {
        const id = `flap-${round}-${n}`;
        expect(await h.deliver(modcall(id))).toBe(204);
        sent.push(id);
      }
      await h.discord.waitFor(
        () => postedDeliveryIds(h.discord, h.channel('modcalls')).length === sent.length,
        15_000,
        `round ${round} posted`,
      );
      // Confirmed too (their cards noted first): the lanes are idle before the store is made slow.
      await h.discord.waitFor(async () => (await h.bot.store.deliveries.countOpen()) === 0, 15_000, 'confirmed');
    };

    for (let flap = 0; flap < 3; flap += 1) {
      await traffic(flap);
      // The store is slow for the features' documents (a lock held, as a long migration or a vacuum would):
      // the escalation's and the session threads' runs under way wait on it, so their stops do too.
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE record IN ACCESS EXCLUSIVE MODE');
      await h.discord.waitFor(
        async () => {
          const { rows } = await admin.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          return (rows[0]?.n ?? 0) >= 2;
        },
        10_000,
        'the jobs waiting on the store',
      );
      await sleep(3 * THREADS_CHECK_MS);
      // The gateway lease is lost, and taken again, while those runs wait.
      const taken = gatewaysTaken(h);
      await endLeaseSession(admin);
      await h.discord.waitFor(() => gatewaysTaken(h) === taken + 1, 15_000, `the gateway taken again (${flap})`);
      await admin.query('COMMIT');
    }
    await traffic(3);

    // Each job runs once: the escalation's checks come one at a time, one per period.
    await sleep(1_000);
    const before = counted.fired(ESCALATION_CHECK_MS);
    await sleep(2_000);
    const checks = counted.fired(ESCALATION_CHECK_MS) - before;
    expect(checks).toBeGreaterThan(0);
    expect(checks).toBeLessThanOrEqual(Math.ceil(2_000 / ESCALATION_CHECK_MS) + 1);

    // The session threads still follow the record.
    expect(await h.deliver(caseCreated(4102, 'warn', base + 2 * 60_000))).toBe(204);
    await threadShowing(h, threadId, (messages) => /#4102/.test(messages[0]?.embeds[0]?.description ?? ''), 'case 2');

    // One gateway session (discord.js spaces identifies 5 s apart: the last login may still wait for its turn),
    // and a slash command answered once.
    await h.discord.waitFor(
      () => h.discord.gatewaySessions === 1 && h.bot.discordHealth.state === 'ready',
      20_000,
      'the gateway ready again',
    );
    const status = await h.discord.dispatchInteraction(chatInputCommand({ name: 'status', guildId: h.guild.id }));
    expect(status.reply?.content).toContain('Feed status of this server');
    expect(h.discord.interactionResponses(status.id).filter((r) => r.kind === 'callback')).toHaveLength(1);
    expect(h.discord.gatewaySessions).toBe(1);

    // Nothing twice: each delivery in one post, one log in the thread.
    expect(postedDeliveryIds(h.discord, h.channel('modcalls'))).toEqual(sent);
    expect(h.discord.messages(threadId)).toHaveLength(1);
  }, 90_000);

  it('a shard lost during its first login: that login is given up, and no session comes up here', async () => {
    const { url, admin } = await databaseWithAdmin();
    // Another process holds the one shard while this one starts.
    await admin.query('SELECT pg_advisory_lock($1, $2)', [...SHARD_LOCK]);
    const h = await startFeedHarness({
      config: { STORE_URL: url },
      leases: { rebalanceMs: 100, idleTimeoutMs: 5_000 },
      waitForReady: false,
    });
    cleanups.push(() => h.stop());
    await sleep(500);
    expect(h.bot.discordHealth.shards).toBeUndefined();
    expect(h.bot.discordHealth.state).toBe('rest');

    // Discord is slow to answer the login's first question; the other process lets the shard go meanwhile.
    h.discord.hangRequests({ match: /^\/gateway\/bot/ });
    const asked = h.discord.requests.length;
    await admin.query('SELECT pg_advisory_unlock($1, $2)', [...SHARD_LOCK]);
    await h.discord.waitFor(
      () => h.discord.requests.slice(asked).some((request) => request.path.startsWith('/gateway/bot')),
      10_000,
      'the login under way',
    );
    expect(h.bot.discordHealth.shards).toEqual({ '0': 'connecting' });

    // The lease session ends before Discord answers, and the other process takes the shard back.
    await endLeaseSession(admin);
    const { rows } = await admin.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
      ...SHARD_LOCK,
    ]);
    expect(rows[0]?.locked).toBe(true);
    await h.discord.waitFor(() => h.bot.discordHealth.shards === undefined, 10_000, 'the shard lost');
    h.discord.clearFaults();

    // Discord answers now; the login it was for is not made, and the feed still posts (its REST is untouched).
    expect(await h.deliver(modcall('after-loss'))).toBe(204);
    await h.discord.waitFor(
      () => postedDeliveryIds(h.discord, h.channel('modcalls')).includes('after-loss'),
      15_000,
      'the post',
    );
    await sleep(2_000);
    expect(h.discord.identifies).toEqual([]);
    expect(h.discord.gatewaySessions).toBe(0);
    expect(h.bot.discordHealth.state).toBe('rest');
  }, 60_000);
});
