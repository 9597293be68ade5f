import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

import { digestModule } from '../src/features/digest/store/digest-module.js';
import { STORE_MODULES } from '../src/features/index.js';
import { readActivity } from '../src/features/leave/activity-report.js';
import { leaveModule } from '../src/features/leave/store/leave-module.js';
import { recordModule } from '../src/features/record/store/record-module.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { withDatabase, withPostgresCluster } from './lib/postgres.js';
import { log, type Figures } from './lib/report.js';
import { formatNumber, median, percentile, roundCount } from './lib/stats.js';

/**
 * What `/staff activity` costs (issue 45): 200 members over a month, in a guild whose record holds that month's
 * activity and eleven more months of it (shifts, cases, modcall cards), with quotas, reduced quotas and leave,
 * on both engines, through the store's port and the feature's own reader (readActivity, as the command calls it,
 * its Discord role lookups aside: no guild, so no member is fetched).
 *
 * - staff.activity_p99_ms (SQLite), staff.activity_pg_p99_ms: one /staff activity of a month, the twelve months in
 *   turn, after warm-ups. Limit 200 ms. Each with its `…_vs_limit` ratio.
 */
const GUILD = '222222222222222222';
const MEMBERS = 200;
const MONTHS = 12;
const SHIFTS_PER_MEMBER_MONTH = 20;
const CASES_PER_SHIFT = 4;
const CARDS_PER_DAY = 100;
const LIMIT_MS = 200;
const WARM_UPS = 5;
const ROLE = '600000000000000001';
const YEAR_START = Date.UTC(2025, 0, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Engine = 'sqlite' | 'postgres';

const memberId = (m: number) => String(500000000000000000n + BigInt(m));

function monthRange(n: number): { from: number; to: number; label: string } {
  return { from: Date.UTC(2025, n, 1), to: Date.UTC(2025, n + 1, 1), label: `month ${n + 1}` };
}

/** The year's rows as INSERT statements of 500 rows each (numbers and ids only: nothing to escape). */
function* seedStatements(): Generator<string> {
  const batch = (table: string, columns: string, rows: string[]) =>
    `INSERT INTO ${table} (${columns}) VALUES ${rows.join(', ')}`;
  let shifts: string[] = [];
  let cases: string[] = [];
  let shiftId = 0;
  let caseNo = 0;
  for (let month = 0; month < MONTHS; month += 1) {
    const { from, to } = monthRange(month);
    const days = (to - from) / DAY;
    for (let m = 0; m < MEMBERS; m += 1) {
      for (let s = 0; s < SHIFTS_PER_MEMBER_MONTH; s += 1) {
        const start = from + ((s * days) / SHIFTS_PER_MEMBER_MONTH) * DAY + ((m * 7) % 20) * HOUR;
        const length = (2 + (m % 3)) * HOUR;
        shiftId += 1;
        shifts.push(
          `('${GUILD}', '1', ${shiftId}, ${start}, '${memberId(m)}', 'm${m}', NULL, ${start}, ${start + length}, ${length / 1000})`,
        );
        for (let c = 0; c < CASES_PER_SHIFT; c += 1) {
          // Bunched at the start of the shift: the rest of it is an idle stretch to flag.
          const at = start + (c + 1) * 10 * 60_000;
          caseNo += 1;
          cases.push(`('${GUILD}', '1', ${caseNo}, ${at}, 'warn', 'p${caseNo}', '${memberId(m)}', ${at})`);
        }
        if (shifts.length >= 500) {
          yield batch(
            'record_shift',
            'guild_id, server, shift_id, at, member_id, member_name, roblox_id, started_at, ended_at, seconds',
            shifts,
          );
          shifts = [];
        }
        if (cases.length >= 500) {
          yield batch('record_case', 'guild_id, server, number, at, type, target_id, moderator_id, created_at', cases);
          cases = [];
        }
      }
    }
  }
  if (shifts.length > 0)
    yield batch(
      'record_shift',
      'guild_id, server, shift_id, at, member_id, member_name, roblox_id, started_at, ended_at, seconds',
      shifts,
    );
  if (cases.length > 0)
    yield batch('record_case', 'guild_id, server, number, at, type, target_id, moderator_id, created_at', cases);
  let cards: string[] = [];
  for (let at = YEAR_START; at < monthRange(MONTHS - 1).to; at += DAY / CARDS_PER_DAY) {
    const n = cards.length;
    // Two in three claimed within minutes, by a member on shift or not.
    const claimed = n % 3 === 2 ? 'NULL, NULL' : `'${memberId(n % MEMBERS)}', ${at + 3 * 60_000}`;
    cards.push(`('${GUILD}', '1', 'c${at}', ${at}, ${claimed}, ${at})`);
    if (cards.length >= 500) {
      yield batch('record_modcall', 'guild_id, server, caller_id, at, claimed_by, claimed_at, card_at', cards);
      cards = [];
    }
  }
  if (cards.length > 0)
    yield batch('record_modcall', 'guild_id, server, caller_id, at, claimed_by, claimed_at, card_at', cards);
}

/** Quotas, a reduced quota and a month of leave for one member in ten, through the stores' ports. */
async function seedSettings(store: Store): Promise<void> {
  await store.of(digestModule).setQuota(GUILD, { roleId: ROLE, hours: 10, per: 'week' });
  const leave = store.of(leaveModule);
  await leave.setReducedQuota(GUILD, ROLE, 4);
  await leave.setChannel(GUILD, '300000000000000001', 'UTC');
  for (let month = 0; month < MONTHS; month += 1) {
    for (let m = month % 10; m < MEMBERS; m += 10) {
      const { from } = monthRange(month);
      const added = await leave.addRequest(GUILD, {
        memberId: memberId(m),
        kind: m % 20 === 0 ? 'reduced' : 'leave',
        startsAt: from + 3 * DAY,
        endsAt: from + 10 * DAY,
        reason: 'bench',
        askedAt: from,
      });
      if (added.kind === 'stored') await leave.decide(GUILD, added.request.number, 'approved', memberId(0), from);
    }
  }
}

async function measure(store: Store): Promise<number[]> {
  const sources = {
    record: store.of(recordModule),
    leave: store.of(leaveModule),
    quotas: store.of(digestModule),
  };
  const run = async (month: number) => {
    const range = monthRange(month);
    const { members } = await readActivity(sources, undefined, GUILD, range, range.to, null);
    if (members.length < MEMBERS) throw new Error(`a month's activity of ${members.length} members`);
  };
  for (let i = 0; i < WARM_UPS; i += 1) await run(i % MONTHS);
  const timings: number[] = [];
  const rounds = roundCount(3) * 20;
  for (let i = 0; i < rounds; i += 1) {
    const start = performance.now();
    await run(i % MONTHS);
    timings.push(performance.now() - start);
  }
  return timings;
}

function report(engine: Engine, timings: number[], figures: Figures): void {
  const suffix = engine === 'sqlite' ? '' : '_pg';
  const p99 = percentile(timings, 99);
  log(
    `  ${engine} /staff activity, ${MEMBERS} members over a month (${timings.length}): median ` +
      `${formatNumber(median(timings))} ms, p99 ${formatNumber(p99)} ms, max ${formatNumber(Math.max(...timings))} ms ` +
      `(limit ${LIMIT_MS} ms)`,
  );
  figures.add(`staff.activity${suffix}_p99_ms`, p99, 'ms');
  figures.add(`staff.activity${suffix}_p99_vs_limit`, p99 / LIMIT_MS, 'x');
}

async function runSqlite(figures: Figures): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-staff-'));
  const file = join(dir, 'store.sqlite');
  try {
    await openSqliteStore(file, Date.now, { modules: STORE_MODULES }).close();
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.transaction(() => {
      for (const sql of seedStatements()) db.exec(sql);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const store = openSqliteStore(file, Date.now, { modules: STORE_MODULES });
    try {
      await seedSettings(store);
      report('sqlite', await measure(store), figures);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runPostgres(figures: Figures): Promise<void> {
  await withPostgresCluster(async (cluster) =>
    withDatabase(cluster, async (database) => {
      const store = await openPostgresStore(database.url, STORE_MODULES, Date.now);
      try {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          for (const sql of seedStatements()) await client.query(sql);
          await client.query('VACUUM ANALYZE record_shift, record_case, record_modcall');
        } finally {
          await client.end();
        }
        await seedSettings(store);
        report('postgres', await measure(store), figures);
      } finally {
        await store.close();
      }
    }),
  );
}

/** staff.activity_p99_ms and its PostgreSQL twin, each with its ratio to the limit. */
export const STAFF_ACTIVITY_FIGURES = [
  'staff.activity_p99_ms',
  'staff.activity_p99_vs_limit',
  'staff.activity_pg_p99_ms',
  'staff.activity_pg_p99_vs_limit',
] as const;

/** /staff activity of MEMBERS members over a month, on SQLite, then PostgreSQL (a cluster of its own). */
export async function measureStaffActivity(figures: Figures): Promise<void> {
  log(
    `staff: /staff activity of ${MEMBERS} members over a month (${SHIFTS_PER_MEMBER_MONTH} shifts and ` +
      `${SHIFTS_PER_MEMBER_MONTH * CASES_PER_SHIFT} cases each, ${CARDS_PER_DAY} modcalls a day, a year of them ` +
      'in the guild), SQLite, then PostgreSQL',
  );
  await runSqlite(figures);
  await runPostgres(figures);
}
