import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

import { STORE_MODULES } from '../src/features/index.js';
import { nameKeyOf, prefixEnd } from '../src/features/record/store/record-merge.js';
import { recordModule } from '../src/features/record/store/record-module.js';
import { recordStatements } from '../src/features/record/store/record-statements.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres-store.js';
import { postgresDialect, sqliteDialect, type Sql } from '../src/store/sql-dialect.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../src/store/store.js';
import type { PostgresCluster } from '../test/helpers/postgres-cluster.js';
import type { BenchGroup } from './group.js';
import { withDatabase, withPostgresCluster } from './lib/postgres.js';
import {
  CASES,
  GUILDS,
  LOOKED_UP_CASES,
  LOOKED_UP_PER_GUILD,
  lookedUpPlayer,
  otherPlayer,
  RECORD_ROWS,
  seedPostgres,
  seedSqlite,
  SHIFT_GUILD,
  SHIFT_MEMBERS,
  SHIFTS,
  YEAR_START,
} from './lib/record-seed.js';
import { log, type Figures } from './lib/report.js';
import { formatNumber, median, percentile } from './lib/stats.js';

/**
 * What the community record's commands cost on a record of the size issue 24 names (lib/record-seed.ts), on
 * both engines, through the store's port as the commands call it:
 *
 * - record.lookup_p99_ms (SQLite), record.lookup_pg_p99_ms: one `/case lookup` of a player with 200 cases in a
 *   record of 1,000,000 cases over 100 guilds: findPlayer, caseTotals and the first page of casesOf, one after
 *   the other as the command runs them. 200 lookups, each of another player (2 per guild, by id and by name in
 *   turn), after warm-up lookups of other players. Limit 50 ms.
 * - record.leaderboard_p99_ms (SQLite), record.leaderboard_pg_p99_ms: `/leaderboard shifts` over a month, in a
 *   guild with 100,000 shifts over a year (about 8,300 a month, 300 members). 200 leaderboards, the 12 months in
 *   turn, after warm-up. Limit 100 ms.
 *
 * Each with its `…_vs_limit` ratio. The statements' plans (EXPLAIN QUERY PLAN / EXPLAIN) are printed once, with
 * whether each uses the index meant for it. SQLite runs in this process (its reads are synchronous, on the
 * main thread, as in the bot); PostgreSQL in a throwaway cluster (lib/postgres.ts), analyzed and vacuumed after
 * the bulk load as autovacuum would have it on a server that has held the record for a while.
 */
const LOOKUPS = 200;
const LEADERBOARDS = 200;
const WARM_UPS = 20;
const LOOKUP_LIMIT_MS = 50;
const LEADERBOARD_LIMIT_MS = 100;
const CASES_PER_PAGE = 10;

type Engine = 'sqlite' | 'postgres';

/** A statement of the record, its parameters, and the index its plan should name. */
interface PlanCheck {
  name: string;
  sql: Sql;
  params: unknown[];
  index: string;
}

function planChecks(engine: Engine): PlanCheck[] {
  const statements = recordStatements(engine === 'sqlite' ? sqliteDialect : postgresDialect);
  const player = lookedUpPlayer(1, 0);
  const month = monthRange(5);
  const primaryKey = engine === 'sqlite' ? 'sqlite_autoindex_record_player_1' : 'record_player_pkey';
  return [
    { name: 'playerById', sql: statements.playerById, params: [player.guildId, player.playerId], index: primaryKey },
    {
      name: 'playerByName',
      sql: statements.playerByName,
      params: [player.guildId, nameKeyOf(player.name)],
      index: 'record_player_by_name',
    },
    {
      name: 'playersFrom (autocomplete)',
      sql: statements.playersFrom,
      params: [player.guildId, nameKeyOf('Repeat'), prefixEnd(nameKeyOf('Repeat')), 25],
      index: 'record_player_by_name',
    },
    {
      name: 'caseTotals',
      sql: statements.caseTotals,
      params: [player.guildId, player.playerId],
      index: 'record_case_by_target',
    },
    {
      name: 'casesOf',
      sql: statements.casesOf,
      params: [player.guildId, player.playerId, CASES_PER_PAGE, 0],
      index: 'record_case_by_target',
    },
    {
      name: 'leaderboard shifts',
      sql: statements.leaderboard.shifts,
      params: [SHIFT_GUILD, month.from, month.to],
      index: 'record_shift_by_time',
    },
  ];
}

/** The `n`th month of the seeded year (0–11), as /leaderboard's month range. */
function monthRange(n: number): { from: number; to: number } {
  const start = new Date(YEAR_START);
  return {
    from: Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + n, 1),
    to: Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + n + 1, 1),
  };
}

function logPlans(engine: Engine, plans: Array<{ check: PlanCheck; lines: string[] }>): void {
  for (const { check, lines } of plans) {
    const uses = lines.some((line) => line.includes(check.index));
    log(`  plan of ${check.name}: ${uses ? 'uses' : 'does NOT use'} ${check.index}`);
    for (const line of lines) log(`    ${line}`);
  }
  log(`  (${engine} plans above)`);
}

interface Timings {
  lookups: number[];
  /** The same lookups, apart: the player typed by id, and by name. */
  byId: number[];
  byName: number[];
  leaderboards: number[];
}

/** The lookups and leaderboards, through the store's port, each timed from the first call to the last answer. */
async function measure(store: Store): Promise<Timings> {
  const community = store.of(recordModule);
  const lookUp = async (guildId: string, typed: string, expected?: number) => {
    const player = await community.findPlayer(guildId, typed);
    if (!player) throw new Error(`no player ${typed} in ${guildId}`);
    const totals = await community.caseTotals(guildId, player.playerId);
    const cases = await community.casesOf(guildId, player.playerId, { limit: CASES_PER_PAGE, offset: 0 });
    const total = totals.reduce((sum, row) => sum + row.count, 0);
    if (expected !== undefined && (total !== expected || cases.length !== CASES_PER_PAGE)) {
      throw new Error(`${typed}: ${total} cases, ${cases.length} shown, not ${expected} and ${CASES_PER_PAGE}`);
    }
  };
  // Warm-up: other players (a few cases each) and one month: statements prepared, the indexes' upper pages read.
  for (let i = 0; i < WARM_UPS; i += 1) {
    const other = otherPlayer(i % GUILDS, i * 7);
    await lookUp(other.guildId, other.playerId);
  }
  await community.leaderboard(SHIFT_GUILD, 'shifts', monthRange(0));

  const lookups: number[] = [];
  const byId: number[] = [];
  const byName: number[] = [];
  for (let i = 0; i < LOOKUPS; i += 1) {
    const player = lookedUpPlayer(i % GUILDS, Math.floor(i / GUILDS) % LOOKED_UP_PER_GUILD);
    // By id (what autocomplete fills in) and by name (typed), in turn.
    const typed = i % 2 === 0 ? player.playerId : player.name;
    const start = performance.now();
    await lookUp(player.guildId, typed, LOOKED_UP_CASES);
    const took = performance.now() - start;
    lookups.push(took);
    (i % 2 === 0 ? byId : byName).push(took);
  }
  const leaderboards: number[] = [];
  for (let i = 0; i < LEADERBOARDS; i += 1) {
    const start = performance.now();
    const standings = await community.leaderboard(SHIFT_GUILD, 'shifts', monthRange(i % 12));
    leaderboards.push(performance.now() - start);
    if (standings.length < SHIFT_MEMBERS * 0.9) throw new Error(`a month's leaderboard of ${standings.length}`);
  }
  return { lookups, byId, byName, leaderboards };
}

function report(engine: Engine, timings: Timings, figures: Figures): void {
  const suffix = engine === 'sqlite' ? '' : '_pg';
  const lookupP99 = percentile(timings.lookups, 99);
  const boardP99 = percentile(timings.leaderboards, 99);
  log(
    `  ${engine} /case lookup (${LOOKUPS}): median ${formatNumber(median(timings.lookups))} ms, p99 ` +
      `${formatNumber(lookupP99)} ms, max ${formatNumber(Math.max(...timings.lookups))} ms (limit ${LOOKUP_LIMIT_MS} ms)`,
  );
  log(
    `    of which by id: median ${formatNumber(median(timings.byId))} ms, p99 ${formatNumber(percentile(timings.byId, 99))} ` +
      `ms; by name: median ${formatNumber(median(timings.byName))} ms, p99 ${formatNumber(percentile(timings.byName, 99))} ms`,
  );
  log(
    `  ${engine} /leaderboard shifts, a month (${LEADERBOARDS}): median ${formatNumber(median(timings.leaderboards))} ` +
      `ms, p99 ${formatNumber(boardP99)} ms, max ${formatNumber(Math.max(...timings.leaderboards))} ms ` +
      `(limit ${LEADERBOARD_LIMIT_MS} ms)`,
  );
  figures.add(`record.lookup${suffix}_p99_ms`, lookupP99, 'ms');
  figures.add(`record.lookup${suffix}_p99_vs_limit`, lookupP99 / LOOKUP_LIMIT_MS, 'x');
  figures.add(`record.leaderboard${suffix}_p99_ms`, boardP99, 'ms');
  figures.add(`record.leaderboard${suffix}_p99_vs_limit`, boardP99 / LEADERBOARD_LIMIT_MS, 'x');
}

function seconds(since: number): string {
  return formatNumber((performance.now() - since) / 1000);
}

async function runSqlite(figures: Figures): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-record-'));
  const file = join(dir, 'store.sqlite');
  try {
    // The bot's own store makes the schema; the rows go in over a connection of the benchmark's own.
    await openSqliteStore(file, Date.now, { modules: STORE_MODULES }).close();
    const started = performance.now();
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    seedSqlite(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const plans = planChecks('sqlite').map((check) => ({
      check,
      lines: db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${check.sql.text}`)
        .all(...check.params)
        .map((row) => row.detail),
    }));
    db.close();
    log(`  sqlite: seeded ${seeded()} in ${seconds(started)} s (${file}; no ANALYZE, as the bot runs none)`);
    logPlans('sqlite', plans);
    const store = openSqliteStore(file, Date.now, { modules: STORE_MODULES });
    try {
      report('sqlite', await measure(store), figures);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runPostgres(cluster: PostgresCluster, figures: Figures): Promise<void> {
  await withDatabase(cluster, async (database) => {
    const store = await openPostgresStore(database.url, STORE_MODULES, Date.now);
    try {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const started = performance.now();
        await seedPostgres(client);
        log(`  postgres: seeded ${seeded()} in ${seconds(started)} s`);
        const analyzed = performance.now();
        await client.query('VACUUM ANALYZE record_guild, record_case, record_player, record_shift');
        log(`  postgres: VACUUM ANALYZE in ${seconds(analyzed)} s`);
        const plans: Array<{ check: PlanCheck; lines: string[] }> = [];
        for (const check of planChecks('postgres')) {
          const result = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${check.sql.text}`, check.params);
          plans.push({ check, lines: result.rows.map((row) => row['QUERY PLAN']) });
        }
        logPlans('postgres', plans);
      } finally {
        await client.end();
      }
      report('postgres', await measure(store), figures);
    } finally {
      await store.close();
    }
  });
}

function seeded(): string {
  return RECORD_ROWS.map(({ table, count }) => `${count} ${table}`).join(', ');
}

export const recordGroup: BenchGroup = {
  name: 'record',
  figures: [
    'record.lookup_p99_ms',
    'record.lookup_p99_vs_limit',
    'record.lookup_pg_p99_ms',
    'record.lookup_pg_p99_vs_limit',
    'record.leaderboard_p99_ms',
    'record.leaderboard_p99_vs_limit',
    'record.leaderboard_pg_p99_ms',
    'record.leaderboard_pg_p99_vs_limit',
  ],
  async run(figures) {
    log(
      `record: /case lookup of a player with ${LOOKED_UP_CASES} cases among ${CASES} over ${GUILDS} guilds ` +
        `(${LOOKUPS} lookups), /leaderboard shifts over a month of ${SHIFTS} shifts a year in one guild ` +
        `(${LEADERBOARDS}); SQLite in ${tmpdir()}, then PostgreSQL`,
    );
    await runSqlite(figures);
    await withPostgresCluster(async (cluster) => {
      log(`  throwaway PostgreSQL cluster on 127.0.0.1:${cluster.port} (fsync off, synchronous_commit on)`);
      await runPostgres(cluster, figures);
    });
  },
};
