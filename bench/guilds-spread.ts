import { REST } from 'discord.js';

import { REALISTIC_GUILD, startFakeDiscord, type FakeDiscord } from '../fakes/discord/index.js';
import { COMMANDS } from '../src/commands/index.js';
import { registerCommands } from '../src/discord/register-commands.js';
import { feedFleetEnv, Fleet, type BotProcess } from '../test/e2e/fleet.js';
import type { PostgresCluster } from '../test/helpers/postgres-cluster.js';
import type { BenchGroup } from './group.js';
import { mb } from './lib/feed-memory-report.js';
import { eachShardReadyOnce, heapUsedOf, isAlive, readShardHolders, rssOf } from './lib/feed-probes.js';
import { fleetTrouble, saveFleetLogs } from './lib/fleet-trouble.js';
import {
  addRealisticGuilds,
  checkGuildsLoad,
  GUILDS,
  IDENTIFY_SPACING_MS,
  identifyPacingMs,
  MAX_CONCURRENCY,
  SHARDS,
} from './lib/guilds-load.js';
import { buildForNpmStart } from './lib/npm-start-build.js';
import { withDatabase, withPostgresCluster } from './lib/postgres.js';
import { log, type Figures } from './lib/report.js';
import { describeReshard, type MovedShard } from './lib/reshard-timeline.js';
import { formatList, formatNumber, median, roundCount, sleep } from './lib/stats.js';
import { StatusCommands } from './lib/status-commands.js';

/**
 * guilds-spread.*: the many guilds of the `guilds` group (BENCH_GUILDS realistic guilds over BENCH_GUILDS_SHARDS
 * shards, max_concurrency BENCH_GUILDS_MAX_CONCURRENCY: lib/guilds-load.ts) held by feed processes on PostgreSQL,
 * which spread the gateway shards among themselves (src/store/postgres/pg-shard-share.ts), each opening a
 * discord.js client per shard it holds. The processes are what a host runs: the compiled bot with npm start's
 * flags, ROLE=feed, one throwaway cluster, a fresh database per phase.
 *
 * Phase A: one process holds every shard; its RSS (and V8 heap, from /metrics) once each shard is ready there, and
 * the time from its start to that. Phase B: four processes started together; once each shard is held by exactly
 * one of them and ready there, each one's RSS and heap, and the time from their start. Then the process holding the
 * most shards is SIGKILLed, and `/status` is sent in a guild of each of its shards, again and again, until each is
 * answered: guilds.reshard_after_kill_ms is the kill to the last of those first answers, against 5 s of identify
 * pacing per shard moved plus 5 s. Every `/status` of both phases (one per shard once the shards are ready, those
 * while they move, one per shard after) is counted: answered twice, or delivered to a live gateway session and
 * never answered (both must be 0); one that reached no live session (the shard between two holders) is Discord's
 * outage and counted apart. guilds.spread_extra_identifies: the identifies the fake saw until every shard was ready
 * in phase B beyond one per shard (a shard identified by one process and again by the next; each costs a turn of
 * Discord's pacing, which the whole deployment shares).
 */
const ROUNDS = roundCount(1);
const PROCESSES = 4;
/** After every shard is ready, before memory is read: the GUILD_CREATEs' garbage has a moment to go. */
const SETTLE_MS = 5_000;
/** How long a delivered `/status` is waited for before the next is sent (its answer may still come). */
const ANSWER_TIMEOUT_MS = 10_000;
/** Between two `/status` of a shard when the last reached no live session or got an error. */
const RETRY_MS = 250;
/** After the last command, before the count: a second answer would come within the first's round trip. */
const GRACE_MS = 2_000;
/** How long the fake may take to see the killed process's sockets close. */
const SOCKETS_CLOSED_TIMEOUT_MS = 10_000;

/** A guild (and a text channel of it) on each shard, where the `/status` of that shard are sent. */
interface ShardGuild {
  shard: number;
  guildId: string;
  channelId: string;
}

interface Scene {
  cluster: PostgresCluster;
  discord: FakeDiscord;
  guilds: ShardGuild[];
  node: readonly string[];
  commands: StatusCommands;
}

interface Memory {
  rss: number;
  heap: number | undefined;
}

interface SingleRun {
  readyMs: number;
  memory: Memory;
}

interface SpreadRun {
  readyMs: number;
  memories: Memory[];
  /** Identifies beyond one per shard until every shard was ready (a shard identified, given back, identified again). */
  extraIdentifies: number;
  moved: number;
  reshardMs: number;
}

/** The variables of every feed process, against this fake Discord and database. */
function feedEnv(discord: FakeDiscord, databaseUrl: string): Record<string, string> {
  return {
    ...feedFleetEnv(discord, databaseUrl),
    // Each its own port, read from its `metrics listening` line.
    METRICS_PORT: '0',
    METRICS_HOST: '127.0.0.1',
  };
}

/** Long enough for Discord's pacing of every shard twice (a hand-over identifies again) on a loaded machine. */
function readyTimeoutMs(): number {
  return 2 * identifyPacingMs() + 60_000 + GUILDS * 5;
}

/** Polls the processes' /healthz until each shard is held by exactly one of them and ready there; returns when. */
async function waitForEachShardReadyOnce(bots: readonly BotProcess[], what: string): Promise<number> {
  const deadline = Date.now() + readyTimeoutMs();
  for (;;) {
    for (const bot of bots) if (!isAlive(bot)) throw new Error(`${bot.name} exited: ${bot.stderr.slice(-500)}`);
    const holders = await readShardHolders(bots);
    if (eachShardReadyOnce(holders, SHARDS)) return Date.now();
    if (Date.now() > deadline) {
      const seen = [...holders].map(
        ([shard, list]) => `${shard}: ${list.map((h) => `${h.bot.name} ${h.state}`).join(' + ')}`,
      );
      throw new Error(`${what}: not every shard held once and ready within ${readyTimeoutMs()} ms; ${seen.join('; ')}`);
    }
    await sleep(250);
  }
}

/** What the fake's gateway saw from a moment on (`since`, from {@link gatewayMark}), and what the processes logged. */
interface GatewayWork {
  identifies: number;
  resumes: number;
  /** Logins of a shard given back before it identified that identified all the same (connect-discord.ts). */
  abandonedCameUp: number;
}

function gatewayMark(discord: FakeDiscord) {
  return { identifies: discord.identifies.length, resumes: discord.resumeLog.length };
}

function gatewayWorkSince(
  discord: FakeDiscord,
  since: ReturnType<typeof gatewayMark>,
  bots: readonly BotProcess[],
): GatewayWork {
  return {
    identifies: discord.identifies.length - since.identifies,
    resumes: discord.resumeLog.length - since.resumes,
    abandonedCameUp: bots
      .flatMap((bot) => bot.lines)
      .filter((line) => line['msg'] === 'a Discord login abandoned meanwhile came up; it was closed again').length,
  };
}

/** The identifies the fake saw since `mark`, each as `shard@seconds after startedAt`, in order. */
function identifyOrder(discord: FakeDiscord, mark: ReturnType<typeof gatewayMark>, startedAt: number): string {
  return discord.identifies
    .slice(mark.identifies)
    .map((identify) => `${Number((identify.shard as number[])[0])}@${formatNumber((identify.time - startedAt) / 1000)}`)
    .join(' ');
}

function describeGatewayWork(work: GatewayWork): string {
  return (
    `${work.identifies} identifies and ${work.resumes} resumes for ${SHARDS} shards, ` +
    `${work.abandonedCameUp} logins of shards given back that came up all the same`
  );
}

async function memoryOf(bot: BotProcess): Promise<Memory> {
  return { rss: rssOf(bot), heap: await heapUsedOf(bot) };
}

/** One `/status` in each shard's guild; each must be answered. */
async function askEveryShard(scene: Scene, what: string): Promise<void> {
  const outcomes = await Promise.all(
    scene.guilds.map((guild) => scene.commands.send(guild.guildId, guild.channelId, guild.shard, ANSWER_TIMEOUT_MS)),
  );
  const unanswered = outcomes.flatMap((outcome, shard) =>
    outcome.kind === 'answered' ? [] : [`${shard}: ${outcome.kind}`],
  );
  if (unanswered.length > 0) log(`    ! ${what}: /status not answered on shard ${unanswered.join(', ')}`);
}

/** Sends `/status` in the shard's guild until one is answered with the feed's status (noted in `moved`). */
async function untilAnswered(scene: Scene, moved: MovedShard, deadline: number): Promise<void> {
  const guild = scene.guilds[moved.shard];
  if (!guild) throw new Error(`no guild on shard ${moved.shard}`);
  while (Date.now() < deadline) {
    moved.sent += 1;
    const outcome = await scene.commands.send(guild.guildId, guild.channelId, guild.shard, ANSWER_TIMEOUT_MS);
    if (outcome.kind === 'answered') {
      moved.answeredAt = outcome.at;
      return;
    }
    if (outcome.kind === 'not delivered') moved.notDelivered += 1;
    // A member whose command went nowhere, or got an error ("still starting"), sends it again a moment later.
    if (outcome.kind !== 'unanswered') await sleep(RETRY_MS);
  }
}

/** Runs `work` with a fleet on a fresh database; the fleet is stopped after, and says what went wrong if it failed. */
async function withFleet<T>(scene: Scene, round: number, work: (fleet: Fleet) => Promise<T>): Promise<T> {
  return withDatabase(scene.cluster, async (database) => {
    const fleet = new Fleet({ env: feedEnv(scene.discord, database.url), node: scene.node });
    try {
      const result = await work(fleet);
      // A second answer would come within the first's round trip: it shows before the processes stop.
      await sleep(GRACE_MS);
      return result;
    } catch (error) {
      for (const line of fleetTrouble(fleet)) log(`  ! ${line}`);
      throw error;
    } finally {
      saveFleetLogs(fleet.processes.values(), round);
      await fleet.stopAll();
    }
  });
}

async function measureSingle(scene: Scene, round: number): Promise<SingleRun> {
  return withFleet(scene, round, async (fleet) => {
    const mark = gatewayMark(scene.discord);
    const startedAt = Date.now();
    const feed = await fleet.start('single', 'feed');
    const readyAt = await waitForEachShardReadyOnce([feed], 'one process');
    const gateway = gatewayWorkSince(scene.discord, mark, [feed]);
    await sleep(SETTLE_MS);
    const memory = await memoryOf(feed);
    await askEveryShard(scene, 'one process');
    const run = { readyMs: readyAt - startedAt, memory };
    log(
      `    one process: every shard ready ${formatNumber(run.readyMs)} ms after its start (Discord's pacing alone ` +
        `${formatNumber(identifyPacingMs())} ms), ${describeGatewayWork(gateway)}; RSS ${formatNumber(mb(memory.rss))} MB, heap used ` +
        `${memory.heap === undefined ? '?' : formatNumber(mb(memory.heap))} MB`,
    );
    return run;
  });
}

async function measureSpread(scene: Scene, round: number): Promise<SpreadRun> {
  return withFleet(scene, round, async (fleet) => {
    const mark = gatewayMark(scene.discord);
    const startedAt = Date.now();
    const names = Array.from({ length: PROCESSES }, (_, i) => `feed-${i + 1}`);
    const feeds = await Promise.all(names.map((name) => fleet.start(name, 'feed')));
    const readyAt = await waitForEachShardReadyOnce(feeds, `${PROCESSES} processes`);
    const gateway = gatewayWorkSince(scene.discord, mark, feeds);
    await sleep(SETTLE_MS);
    const memories = await Promise.all(feeds.map(memoryOf));
    const holders = await readShardHolders(feeds);
    const held = feeds.map((bot) => [...holders].filter(([, list]) => list[0]?.bot === bot).map(([shard]) => shard));
    log(
      `    ${PROCESSES} processes: every shard held once and ready ${formatNumber(readyAt - startedAt)} ms after their ` +
        `start (Discord's pacing alone ${formatNumber(identifyPacingMs())} ms), ${describeGatewayWork(gateway)}; shards each ` +
        `${formatList(held.map((shards) => shards.length))}; RSS ${formatList(memories.map((m) => mb(m.rss)))} MB, heap used ` +
        `${memories.map((m) => (m.heap === undefined ? '?' : formatNumber(mb(m.heap)))).join(', ')} MB`,
    );
    // Where the time went: Discord's pacing is shared by the deployment (the store reserves each turn).
    log(`      identifies (shard@s after the start): ${identifyOrder(scene.discord, mark, startedAt)}`);
    await askEveryShard(scene, `${PROCESSES} processes`);

    // The one holding the most shards: the most to move.
    const victimIndex = held.reduce((best, shards, i) => (shards.length > (held[best]?.length ?? 0) ? i : best), 0);
    const victim = feeds[victimIndex];
    const moved: MovedShard[] = (held[victimIndex] ?? []).map((shard) => ({ shard, sent: 0, notDelivered: 0 }));
    if (!victim || moved.length === 0) throw new Error('no process holds a shard');
    const survivors = feeds.filter((bot) => bot !== victim);
    const movedIds = new Set(moved.map((m) => m.shard));
    const reshardLimitMs = IDENTIFY_SPACING_MS * moved.length + IDENTIFY_SPACING_MS;
    const identifiesBeforeKill = scene.discord.identifies.length;
    const killedAt = Date.now();
    await fleet.kill(victim.name);
    // Until the fake sees the dead sockets close, a command would be counted delivered to a session nobody reads.
    await scene.discord
      .waitFor(
        () => !scene.discord.gatewaySessionList.some((s) => s.connected && movedIds.has(s.shard[0])),
        SOCKETS_CLOSED_TIMEOUT_MS,
        "the killed process's gateway sockets closed",
      )
      .catch(() => log(`    ! the fake still sees a live session of the killed process's shards`));
    await Promise.all(moved.map((shard) => untilAnswered(scene, shard, killedAt + 3 * reshardLimitMs + 60_000)));
    const unmoved = moved.filter((shard) => shard.answeredAt === undefined);
    const identifies = scene.discord.identifies.slice(identifiesBeforeKill);
    for (const line of describeReshard(killedAt, moved, survivors, identifies)) log(`      ${line}`);
    for (const { shard, sentAt } of scene.commands.tally().lostCommands.filter((c) => c.sentAt >= killedAt)) {
      log(
        `      ! a /status on shard ${shard} sent +${formatNumber(sentAt - killedAt)} ms was delivered, never answered`,
      );
    }
    const again = identifies.map((identify) => Number((identify.shard as number[])[0])).sort((a, b) => a - b);
    log(
      `    killed ${victim.name} (${moved.length} shards): shards identified again after the kill: ` +
        `${again.join(', ') || 'none'}`,
    );
    if (unmoved.length > 0) {
      throw new Error(`no answer on shard ${unmoved.map((s) => s.shard).join(', ')} after the kill`);
    }
    const reshardMs = Math.max(...moved.map((shard) => (shard.answeredAt ?? Infinity) - killedAt));
    log(
      `    the kill to the last moved shard's first answer: ${formatNumber(reshardMs)} ms (limit ` +
        `${formatNumber(reshardLimitMs)} ms: 5 s of identify pacing for each of ${moved.length} shards, and 5 s)`,
    );
    await waitForEachShardReadyOnce(survivors, 'the survivors');
    await askEveryShard(scene, 'after the kill');
    return {
      readyMs: readyAt - startedAt,
      memories,
      extraIdentifies: gateway.identifies - SHARDS,
      moved: moved.length,
      reshardMs,
    };
  });
}

/** The fake Discord with the guilds, and a guild (with a text channel) on each shard whose commands are registered. */
async function startScene(cluster: PostgresCluster, node: readonly string[]): Promise<Scene> {
  const discord = await startFakeDiscord({ shards: SHARDS, maxConcurrency: MAX_CONCURRENCY });
  const added = addRealisticGuilds(discord, GUILDS);
  const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
  const guilds: ShardGuild[] = [];
  for (let shard = 0; shard < SHARDS; shard += 1) {
    // Guild i is on shard i % SHARDS.
    const guild = added[shard];
    const channelId = guild?.channels['general'];
    if (!guild || channelId === undefined) throw new Error(`no guild with a #general on shard ${shard}`);
    await registerCommands(rest, COMMANDS, { guildId: guild.id });
    guilds.push({ shard, guildId: guild.id, channelId });
  }
  return { cluster, discord, guilds, node, commands: new StatusCommands(discord) };
}

function addFigures(figures: Figures, singles: SingleRun[], spreads: SpreadRun[], scene: Scene): void {
  // Memory must hold in every round: the worst round's; the times the median's.
  const singleRss = Math.max(...singles.map((run) => run.memory.rss));
  const spreadRss = Math.max(...spreads.flatMap((run) => run.memories.map((m) => m.rss)));
  const ratios = spreads.map(
    (run, i) => Math.max(...run.memories.map((m) => m.rss)) / ((singles[i]?.memory.rss ?? Number.NaN) / 2),
  );
  const reshardMs = median(spreads.map((run) => run.reshardMs));
  const limits = spreads.map((run) => IDENTIFY_SPACING_MS * run.moved + IDENTIFY_SPACING_MS);
  const vsLimit = median(spreads.map((run, i) => run.reshardMs / (limits[i] ?? Number.NaN)));
  const tally = scene.commands.tally();
  log(
    `  /status sent ${tally.sent}: delivered to a live session ${tally.delivered}, to none ${tally.notDelivered} ` +
      `(the shard between two holders); answered twice ${tally.answeredTwice}, delivered and never answered ` +
      `${tally.lost}, answered with something else ${tally.wrongAnswers}; slowest answer ${formatNumber(tally.slowestMs)} ms`,
  );
  figures.add('guilds.single_rss_mb', mb(singleRss), 'MB');
  figures.add('guilds.spread_rss_mb', mb(spreadRss), 'MB');
  figures.add('guilds.spread_rss_vs_half_single', Math.max(...ratios), 'x');
  const heaps = (runs: Array<Memory[]>) => runs.flat().flatMap((m) => (m.heap === undefined ? [] : [m.heap]));
  const singleHeaps = heaps(singles.map((run) => [run.memory]));
  const spreadHeaps = heaps(spreads.map((run) => run.memories));
  if (singleHeaps.length > 0) figures.add('guilds.single_heap_mb', mb(Math.max(...singleHeaps)), 'MB');
  if (spreadHeaps.length > 0) figures.add('guilds.spread_heap_mb', mb(Math.max(...spreadHeaps)), 'MB');
  figures.add('guilds.single_ready_ms', median(singles.map((run) => run.readyMs)), 'ms');
  figures.add('guilds.spread_ready_ms', median(spreads.map((run) => run.readyMs)), 'ms');
  figures.add('guilds.spread_extra_identifies', Math.max(...spreads.map((run) => run.extraIdentifies)), 'identifies');
  figures.add('guilds.reshard_after_kill_ms', reshardMs, 'ms');
  figures.add('guilds.reshard_limit_ms', median(limits), 'ms');
  figures.add('guilds.reshard_after_kill_vs_limit', vsLimit, 'x');
  figures.add('guilds.commands_answered_twice', tally.answeredTwice, 'commands');
  figures.add('guilds.commands_lost', tally.lost, 'commands');
}

export const guildsSpreadGroup: BenchGroup = {
  name: 'guilds-spread',
  figures: [
    'guilds.single_rss_mb',
    'guilds.spread_rss_mb',
    'guilds.spread_rss_vs_half_single',
    'guilds.single_heap_mb',
    'guilds.spread_heap_mb',
    'guilds.single_ready_ms',
    'guilds.spread_ready_ms',
    'guilds.spread_extra_identifies',
    'guilds.reshard_after_kill_ms',
    'guilds.reshard_limit_ms',
    'guilds.reshard_after_kill_vs_limit',
    'guilds.commands_answered_twice',
    'guilds.commands_lost',
  ],
  async run(figures) {
    checkGuildsLoad();
    log(
      `guilds-spread: ${formatNumber(GUILDS)} guilds (${REALISTIC_GUILD.channels} channels, ${REALISTIC_GUILD.roles} ` +
        `roles, overwrites, ${REALISTIC_GUILD.membersInVoice} members in voice each) over ${SHARDS} shards, ` +
        `max_concurrency ${MAX_CONCURRENCY}, on PostgreSQL: one feed process holding every shard, then ${PROCESSES} ` +
        `sharing them and the one holding the most SIGKILLed; ${ROUNDS} round(s)`,
    );
    const node = await buildForNpmStart();
    await withPostgresCluster(async (cluster) => {
      log(`  throwaway PostgreSQL cluster on 127.0.0.1:${cluster.port}`);
      const scene = await startScene(cluster, node);
      try {
        const singles: SingleRun[] = [];
        const spreads: SpreadRun[] = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          log(`  round ${round + 1}:`);
          singles.push(await measureSingle(scene, round));
          spreads.push(await measureSpread(scene, round));
        }
        addFigures(figures, singles, spreads, scene);
      } finally {
        await scene.discord.close();
      }
    });
  },
};
