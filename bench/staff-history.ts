import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

import { STORE_MODULES } from '../src/features/index.js';
import { recordOf } from '../src/features/record/index.js';
import { memberMonthStatements } from '../src/features/record/store/member-month-statements.js';
import { readMemberHistory, renderMemberHistory } from '../src/features/staff-actions/member-history.js';
import { staffActionsModule } from '../src/features/staff-actions/store/staff-actions-module.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres-store.js';
import { postgresDialect, sqliteDialect, type Sql } from '../src/store/sql-dialect.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../src/store/store.js';
import type { PostgresCluster } from '../test/helpers/postgres-cluster.js';
import { withDatabase } from './lib/postgres.js';
import { log, type Figures } from './lib/report.js';
import {
  HISTORY_CALLS,
  HISTORY_CASES,
  HISTORY_GUILD,
  HISTORY_ROWS,
  HISTORY_SHIFTS,
  HISTORY_START,
  HISTORY_YEARS,
  MEASURED_MEMBERS,
  seedHistoryPostgres,
  seedHistorySqlite,
  staffMemberId,
} from './lib/staff-history-seed.js';
import { formatNumber, median, percentile, roundCount } from './lib/stats.js';

/**
 * staff.history_p99_ms (SQLite), staff.history_pg_p99_ms: `/staff history` of a member with five years of activity
 * (about 20,000 cases, 1,000 shifts and 1,800 claims, 40 infractions, 12 promotions) in a guild of 1,000,000 cases,
 * 100,000 shifts and 200,000 modcalls (lib/staff-history-seed.ts): everything the command reads and draws (the
 * timeline, the record's months through its index.ts, the two embeds), through the store's port, as the command runs
 * it (Discord's own checks aside). 200 histories, the 10 members in turn, after warm-up. Limit 50 ms; each with its
 * `…_vs_limit` ratio. The statements' plans are printed once, with whether each uses the index meant for it.
 */
const HISTORIES = 200;
const WARM_UPS = 10;
export const HISTORY_LIMIT_MS = 50;

/** The figures this file prints (the staff group lists them). */
export const STAFF_HISTORY_FIGURES = [
  'staff.history_p99_ms',
  'staff.history_p99_vs_limit',
  'staff.history_pg_p99_ms',
  'staff.history_pg_p99_vs_limit',
] as const;

type Engine = 'sqlite' | 'postgres';

interface PlanCheck {
  name: string;
  sql: Sql;
  params: unknown[];
  index: string;
}

function planChecks(engine: Engine): PlanCheck[] {
  const statements = memberMonthStatements(engine === 'sqlite' ? sqliteDialect : postgresDialect);
  const params = [HISTORY_GUILD, staffMemberId(0), 0, Number.MAX_SAFE_INTEGER];
  return [
    { name: 'memberMonths shifts', sql: statements.shiftMonths, params, index: 'record_shift_by_member' },
    {
      name: 'memberMonths cases',
      sql: statements.caseMonths,
      params,
      index: engine === 'sqlite' ? 'record_case_by_moderator' : 'record_case_standing_by_day',
    },
    { name: 'memberMonths claims', sql: statements.claims, params, index: 'record_modcall_by_claimer' },
  ];
}

function logPlans(engine: Engine, plans: Array<{ check: PlanCheck; lines: string[] }>): void {
  for (const { check, lines } of plans) {
    log(
      `  plan of ${check.name}: ${lines.some((line) => line.includes(check.index)) ? 'uses' : 'does NOT use'} ${check.index}`,
    );
    for (const line of lines) log(`    ${line}`);
  }
  log(`  (${engine} plans above)`);
}

/** The histories, each timed from the first read to the embeds drawn. */
async function measure(store: Store): Promise<number[]> {
  const deps = {
    staffActions: store.of(staffActionsModule),
    staffRecord: recordOf(store),
    timeline: [],
    logger: { warn: () => undefined } as unknown as Parameters<typeof readMemberHistory>[0]['logger'],
  };
  const now = HISTORY_START + HISTORY_YEARS * 365 * 86_400_000;
  const show = async (member: number) => {
    const history = await readMemberHistory(deps, HISTORY_GUILD, staffMemberId(member), now);
    const embeds = renderMemberHistory(staffMemberId(member), history);
    if (history.months.length < HISTORY_YEARS * 12 - 1 || history.entries.length < 50 || embeds.length !== 2) {
      throw new Error(`member ${member}: ${history.months.length} months, ${history.entries.length} entries`);
    }
  };
  for (let i = 0; i < WARM_UPS; i += 1) await show(i % MEASURED_MEMBERS);
  const took: number[] = [];
  const histories = roundCount(HISTORIES);
  for (let i = 0; i < histories; i += 1) {
    const start = performance.now();
    await show(i % MEASURED_MEMBERS);
    took.push(performance.now() - start);
  }
  return took;
}

function report(engine: Engine, took: readonly number[], figures: Figures): void {
  const suffix = engine === 'sqlite' ? '' : '_pg';
  const p99 = percentile(took, 99);
  log(
    `  ${engine} /staff history (${took.length}): median ${formatNumber(median(took))} ms, p99 ${formatNumber(p99)} ` +
      `ms, max ${formatNumber(Math.max(...took))} ms (limit ${HISTORY_LIMIT_MS} ms)`,
  );
  figures.add(`staff.history${suffix}_p99_ms`, p99, 'ms');
  figures.add(`staff.history${suffix}_p99_vs_limit`, p99 / HISTORY_LIMIT_MS, 'x');
}

function seeded(): string {
  return `${HISTORY_CASES} cases, ${HISTORY_SHIFTS} shifts, ${HISTORY_CALLS} modcalls over ${HISTORY_YEARS} years`;
}

function secondsSince(start: number): string {
  return formatNumber((performance.now() - start) / 1000);
}

/** SQLite: the bot's store makes the schema; the rows go in over a connection of the benchmark's own. */
export async function measureStaffHistorySqlite(figures: Figures): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-staff-'));
  const file = join(dir, 'store.sqlite');
  try {
    await openSqliteStore(file, Date.now, { modules: STORE_MODULES }).close();
    const started = performance.now();
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    seedHistorySqlite(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const plans = planChecks('sqlite').map((check) => ({
      check,
      lines: db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${check.sql.text}`)
        .all(...check.params)
        .map((row) => row.detail),
    }));
    db.close();
    log(`  sqlite: seeded ${seeded()} in ${secondsSince(started)} s (no ANALYZE, as the bot runs none)`);
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

/** PostgreSQL: seeded, then vacuumed and analyzed as autovacuum would have it on a server that held it a while. */
export async function measureStaffHistoryPostgres(cluster: PostgresCluster, figures: Figures): Promise<void> {
  await withDatabase(cluster, async (database) => {
    const store = await openPostgresStore(database.url, STORE_MODULES, Date.now);
    try {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const started = performance.now();
        await seedHistoryPostgres(client);
        log(`  postgres: seeded ${seeded()} in ${secondsSince(started)} s`);
        await client.query(`VACUUM ANALYZE ${HISTORY_ROWS.map((rows) => rows.table).join(', ')}`);
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
