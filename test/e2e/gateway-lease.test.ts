import { REST } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { guildIdOnShard, startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { chatInputCommand } from '../../fakes/discord/interaction-builders.js';
import { COMMANDS } from '../../src/commands/index.js';
import { registerCommands } from '../../src/discord/register-commands.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { feedFleetEnv, Fleet, type BotProcess } from './fleet.js';

const cleanups: Array<() => unknown> = [];
/** The fleets of the test running: a failed test prints what their processes said of shards and leases. */
const fleets: Fleet[] = [];
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') for (const fleet of fleets) printLeaseLines(fleet);
  fleets.length = 0;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function printLeaseLines(fleet: Fleet): void {
  for (const bot of fleet.processes.values()) {
    const lines = bot.lines
      .filter((line) => /shard|gateway|jobs|lease|partition/i.test(String(line['msg'])))
      .map((line) => [line['time'], line['msg'], line['shards'] ?? line['shard'] ?? line['members'] ?? '']);
    console.log(bot.name, JSON.stringify(lines));
  }
}

/** The shards a process holds now, from its own log: each it took, less each it gave back or lost. */
function shardsOf(bot: BotProcess): number[] {
  const held = new Set<number>();
  for (const line of bot.lines) {
    const shards = (line['shards'] ?? []) as number[];
    if (line['msg'] === 'took gateway shards') for (const shard of shards) held.add(shard);
    const gone = ['giving back gateway shards', 'lost gateway shards with the lease session'];
    if (gone.includes(String(line['msg']))) for (const shard of shards) held.delete(shard);
  }
  return [...held].sort((a, b) => a - b);
}

/**
 * Whether the process's client of the shard became ready after it last took the shard (a take logged from line
 * `since` on, when given: one after a fault).
 */
function readyOn(bot: BotProcess, shard: number, since = 0): boolean {
  const took = bot.lines.findLastIndex(
    (line, index) =>
      index >= since && line['msg'] === 'took gateway shards' && (line['shards'] as number[]).includes(shard),
  );
  return (
    took >= 0 &&
    bot.lines.slice(took).some((line) => line['msg'] === 'Discord gateway shard ready' && line['shard'] === shard)
  );
}

const runsJobs = (bot: BotProcess) =>
  bot.lines.filter((line) => line['msg'] === "this process runs the deployment's jobs").length >
  bot.lines.filter((line) => line['msg'] === 'this process no longer runs the jobs').length;

/** `/status` in a guild, answered once with the feed's status. */
async function expectStatusAnsweredOnce(discord: FakeDiscord, guildId: string): Promise<void> {
  const outcome = await discord.dispatchInteraction(chatInputCommand({ name: 'status', guildId }), {
    timeoutMs: 15_000,
  });
  expect(outcome.reply?.content).toContain('Feed status of this server');
  // A second answer would come within the first's round trip: a moment's wait lets it show.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(discord.interactionResponses(outcome.id).filter((r) => r.kind === 'callback')).toHaveLength(1);
}

/** Every shard of `count` held by exactly one of the live processes, each live one holding some. */
function expectEachShardHeldOnce(bots: readonly BotProcess[], count: number): void {
  const held = bots.flatMap(shardsOf).sort((a, b) => a - b);
  expect(held).toEqual(Array.from({ length: count }, (_, shard) => shard));
  for (const bot of bots) expect(shardsOf(bot).length).toBeGreaterThan(0);
}

async function fleetOn(shards: number, guildCount: number, heartbeatIntervalMs?: number) {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const discord = await startFakeDiscord({
    shards,
    maxConcurrency: shards,
    ...(heartbeatIntervalMs ? { heartbeatIntervalMs } : {}),
  });
  cleanups.push(() => discord.close());
  const guilds = Array.from({ length: guildCount }, (_, index) =>
    discord.addGuild({ id: guildIdOnShard(index % shards, shards), name: `Guild ${index}` }),
  );
  const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
  for (const guild of guilds) await registerCommands(rest, COMMANDS, { guildId: guild.id });
  const fleet = new Fleet({ env: feedFleetEnv(discord, database.url) });
  cleanups.push(() => fleet.stopAll());
  fleets.push(fleet);
  return { discord, guilds, fleet };
}

describe.skipIf(!POSTGRES_URL)('gateway shards spread over the feed processes on PostgreSQL', () => {
  it('one shard: held by one process, answered once, and by the other once the holder dies', async () => {
    const { discord, guilds, fleet } = await fleetOn(1, 1);
    const guild = guilds[0];
    if (!guild) throw new Error('no guild');
    const feeds = await Promise.all([fleet.start('feed-1', 'feed'), fleet.start('feed-2', 'feed')]);

    await discord.waitFor(() => discord.gatewaySessions === 1, 15_000, 'one gateway session');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(discord.gatewaySessions).toBe(1);
    expect(feeds.filter((bot) => shardsOf(bot).length > 0)).toHaveLength(1);
    expect(feeds.filter(runsJobs)).toHaveLength(1);
    await expectStatusAnsweredOnce(discord, guild.id);

    const owner = feeds.find((bot) => shardsOf(bot).length > 0);
    const other = feeds.find((bot) => bot !== owner);
    if (!owner || !other) throw new Error('no shard holder');
    const killedAt = other.lines.length;
    await fleet.kill(owner.name);
    await discord.waitFor(
      () => readyOn(other, 0, killedAt) && discord.gatewaySessions === 1,
      15_000,
      'the shard taken over',
    );
    await discord.waitFor(() => runsJobs(other), 15_000, 'the jobs taken over');
    await expectStatusAnsweredOnce(discord, guild.id);
  }, 60_000);

  it("three shards over two processes: each held once, and only the dead one's identified again", async () => {
    const { discord, guilds, fleet } = await fleetOn(3, 6);
    const feeds = await Promise.all([fleet.start('feed-1', 'feed'), fleet.start('feed-2', 'feed')]);

    await discord.waitFor(
      () => discord.gatewaySessions === 3 && feeds.every((bot) => shardsOf(bot).length > 0),
      20_000,
      'three shards over two processes',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(discord.gatewaySessions).toBe(3);
    expectEachShardHeldOnce(feeds, 3);
    for (const guild of guilds) await expectStatusAnsweredOnce(discord, guild.id);

    const [victim, survivor] = [...feeds].sort((a, b) => shardsOf(a).length - shardsOf(b).length);
    if (!victim || !survivor) throw new Error('two feeds');
    const moved = shardsOf(victim);
    const kept = shardsOf(survivor);
    const identifiedBefore = discord.identifies.length;
    const killedAt = survivor.lines.length;
    await fleet.kill(victim.name);
    await discord.waitFor(
      () => moved.every((shard) => readyOn(survivor, shard, killedAt)) && discord.gatewaySessions === 3,
      20_000,
      'every shard held by the survivor',
    );
    // The survivor's own shards stayed connected: only the dead process's were identified again.
    const again = discord.identifies.slice(identifiedBefore).map((identify) => (identify.shard as number[])[0]);
    expect(again.sort()).toEqual(moved);
    expect(kept.every((shard) => !again.includes(shard))).toBe(true);
    for (const guild of guilds) await expectStatusAnsweredOnce(discord, guild.id);
  }, 90_000);

  it('a process joining takes its share: the shards handed over, none held twice', async () => {
    const { discord, guilds, fleet } = await fleetOn(4, 4);
    const first = await fleet.start('feed-1', 'feed');
    await discord.waitFor(() => shardsOf(first).length === 4 && discord.gatewaySessions === 4, 30_000, 'all four');
    const second = await fleet.start('feed-2', 'feed');
    await discord.waitFor(
      () =>
        shardsOf(second).length === 2 &&
        shardsOf(second).every((shard) => readyOn(second, shard)) &&
        shardsOf(first).length === 2 &&
        discord.gatewaySessions === 4,
      30_000,
      'two and two',
    );
    expectEachShardHeldOnce([first, second], 4);
    for (const guild of guilds) await expectStatusAnsweredOnce(discord, guild.id);
  }, 90_000);

  it('a paused holder loses its shards to the other, and answers nothing twice once it wakes', async () => {
    // Heartbeats every second: the fake then sees the paused process's sessions as dead (two intervals silent) and
    // lets the shard identify elsewhere, as Discord does once it stops hearing a session.
    const { discord, guilds, fleet } = await fleetOn(2, 4, 1_000);
    const feeds = await Promise.all([fleet.start('feed-1', 'feed'), fleet.start('feed-2', 'feed')]);
    await discord.waitFor(
      () =>
        discord.gatewaySessions === 2 &&
        feeds.every((bot) => shardsOf(bot).length === 1 && shardsOf(bot).every((shard) => readyOn(bot, shard))),
      // The start, not the guarantee under test: two processes, a hand-over and an identify turn each (5 s apart),
      // slower when the machine runs the whole suite.
      40_000,
      'one shard each',
    );
    const [paused, other] = feeds;
    if (!paused || !other) throw new Error('two feeds');
    fleet.pause(paused.name);
    cleanups.push(() => fleet.resume(paused.name));
    // Its lease session ends after the idle timeout (10 s): the other takes the shard and identifies it.
    const moved = shardsOf(paused)[0] ?? -1;
    const pausedAt = other.lines.length;
    await discord.waitFor(
      () => readyOn(other, moved, pausedAt),
      40_000,
      "the paused one's shard taken and identified again",
    );
    for (const guild of guilds) await expectStatusAnsweredOnce(discord, guild.id);

    fleet.resume(paused.name);
    await discord.waitFor(
      () => paused.lines.some((line) => String(line['msg']).includes('has not answered in time')),
      20_000,
      'the woken process drops what it held',
    );
    // It joins again as a new member and takes its share back: once each shard is held once and connected,
    // every command is answered once (one arriving during the hand-over reaches no session at all).
    await discord.waitFor(
      () =>
        feeds.every((bot) => shardsOf(bot).length === 1 && shardsOf(bot).every((shard) => readyOn(bot, shard))) &&
        discord.gatewaySessions === 2,
      30_000,
      'one shard each again',
    );
    for (const guild of guilds) await expectStatusAnsweredOnce(discord, guild.id);
  }, 120_000);
});
