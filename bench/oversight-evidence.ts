import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

import { STORE_MODULES } from '../src/features/index.js';
import { renderEvidenceHtml } from '../src/features/record/evidence-html.js';
import { renderEvidencePack } from '../src/features/record/evidence-pack.js';
import { EVIDENCE_MODCALL_SPAN_MS } from '../src/features/record/store/case-evidence.js';
import { evidenceStatements } from '../src/features/record/store/evidence-statements.js';
import { recordModule } from '../src/features/record/store/record-module.js';
import { recordStatements } from '../src/features/record/store/record-statements.js';
import { SHIFT_LOOKBACK_MS } from '../src/features/record/store/session-statements.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres-store.js';
import { postgresDialect, sqliteDialect, type Sql } from '../src/store/sql-dialect.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../src/store/store.js';
import {
  askedCase,
  EVIDENCE_CASES,
  EVIDENCE_GUILD,
  EVIDENCE_ROWS,
  seedEvidencePostgres,
  seedEvidenceSqlite,
  serverOf,
} from './lib/evidence-seed.js';
import { withDatabase, withPostgresCluster } from './lib/postgres.js';
import { log, type Figures } from './lib/report.js';
import { formatNumber, median, percentile, roundCount } from './lib/stats.js';

/**
 * oversight.evidence_p99_ms (SQLite), oversight.evidence_pg_p99_ms: one `/case evidence` in a guild of 1,000,000
 * cases (lib/evidence-seed.ts), as the command does it: the pack read through the store's port (caseEvidence: the
 * case by number, the player's calls before it, who was on shift, the moderator's last shift, the session, the
 * player's earlier cases), then its embeds and its HTML file rendered. 200 packs of cases spread over the year,
 * after 20 of others; p99 against the 100 ms limit, with its `…_vs_limit` ratio. Each statement's plan is printed
 * once, with whether it uses the index meant for it. BENCH_ROUNDS=<n> sets the packs measured (×10).
 */
const PACKS = roundCount(20) * 10;
const WARM_UPS = 20;
const LIMIT_MS = 100;

type Engine = 'sqlite' | 'postgres';

interface PlanCheck {
  name: string;
  sql: Sql;
  params: unknown[];
  index: string;
}

function planChecks(engine: Engine): PlanCheck[] {
  const d = engine === 'sqlite' ? sqliteDialect : postgresDialect;
  const s = evidenceStatements(d);
  const record = recordStatements(d);
  const at = Date.UTC(2026, 3, 1);
  const player = '10000007';
  const modcallKey = engine === 'sqlite' ? 'sqlite_autoindex_record_modcall_1' : 'record_modcall_pkey';
  return [
    { name: 'casesNumbered', sql: s.casesNumbered, params: [EVIDENCE_GUILD, 4242, 11], index: 'record_case_by_number' },
    {
      name: 'modcalls (the player, before the case)',
      sql: s.modcalls,
      params: [EVIDENCE_GUILD, serverOf(1), player, at - EVIDENCE_MODCALL_SPAN_MS, at, 21],
      index: modcallKey,
    },
    {
      name: 'shiftsAt',
      sql: s.shiftsAt,
      params: [EVIDENCE_GUILD, at - SHIFT_LOOKBACK_MS, at, at, 26],
      index: 'record_shift_',
    },
    {
      name: "lastShiftOf (the moderator's)",
      sql: s.lastShiftOf,
      params: [EVIDENCE_GUILD, '300000000000000007', at],
      index: 'record_shift_by_member',
    },
    {
      name: 'sessionAt',
      sql: s.sessionAt,
      params: [EVIDENCE_GUILD, serverOf(1), at - 86_400_000, at, at],
      index: 'record_session_',
    },
    {
      name: "casesBefore (the player's)",
      sql: s.casesBefore,
      params: [EVIDENCE_GUILD, player, at, 10],
      index: 'record_case_by_target',
    },
    {
      name: "earlierCases (the player's counts)",
      sql: record.earlierCases,
      params: [EVIDENCE_GUILD, player, at],
      index: 'record_case_by_target',
    },
  ];
}

function logPlans(engine: Engine, plans: Array<{ check: PlanCheck; lines: string[] }>): void {
  for (const { check, lines } of plans) {
    const uses = lines.some((line) => line.includes(check.index));
    log(`  ${engine} plan of ${check.name}: ${uses ? 'uses' : 'does NOT use'} ${check.index}…`);
    for (const line of lines) log(`    ${line}`);
  }
}

interface Timings {
  packs: number[];
  /** Of each pack, the store's part alone. */
  reads: number[];
  modcalls: number;
  onShift: number;
  sessions: number;
}

/** The packs through the store's port and the renderers, each timed from the read to the HTML's last byte. */
async function measure(store: Store): Promise<Timings> {
  const community = store.of(recordModule);
  const pack = async (n: number) => {
    const asked = askedCase(n);
    const started = performance.now();
    const found = await community.caseEvidence(EVIDENCE_GUILD, asked.number, asked.server);
    const read = performance.now() - started;
    if (found.kind !== 'found') throw new Error(`case #${asked.number} of ${asked.server}: ${found.kind}`);
    const message = renderEvidencePack(found.evidence, true);
    const html = renderEvidenceHtml(found.evidence, { guildId: EVIDENCE_GUILD, guildName: 'Bench', madeAt: 0 });
    if (message.embeds.length === 0 || html.length === 0) throw new Error('an empty pack');
    return { took: performance.now() - started, read, evidence: found.evidence };
  };
  for (let i = 0; i < WARM_UPS; i += 1) await pack(PACKS + 1000 + i);
  const timings: Timings = { packs: [], reads: [], modcalls: 0, onShift: 0, sessions: 0 };
  for (let i = 0; i < PACKS; i += 1) {
    const { took, read, evidence } = await pack(i);
    timings.packs.push(took);
    timings.reads.push(read);
    if (evidence.modcalls.length > 0) timings.modcalls += 1;
    if (evidence.onShift.length > 0) timings.onShift += 1;
    if (evidence.session) timings.sessions += 1;
  }
  return timings;
}

function report(engine: Engine, timings: Timings, figures: Figures): void {
  const suffix = engine === 'sqlite' ? '' : '_pg';
  const p99 = percentile(timings.packs, 99);
  log(
    `  ${engine} /case evidence (${PACKS}): median ${formatNumber(median(timings.packs))} ms, p99 ${formatNumber(p99)} ` +
      `ms, max ${formatNumber(Math.max(...timings.packs))} ms (limit ${LIMIT_MS} ms); the store's reads alone: ` +
      `median ${formatNumber(median(timings.reads))} ms, p99 ${formatNumber(percentile(timings.reads, 99))} ms`,
  );
  log(
    `    packs with the player's calls: ${timings.modcalls}, with staff on shift: ${timings.onShift}, ` +
      `with a session: ${timings.sessions}`,
  );
  figures.add(`oversight.evidence${suffix}_p99_ms`, p99, 'ms');
  figures.add(`oversight.evidence${suffix}_p99_vs_limit`, p99 / LIMIT_MS, 'x');
}

function seconds(since: number): string {
  return formatNumber((performance.now() - since) / 1000);
}

function seeded(): string {
  return EVIDENCE_ROWS.map(({ table, count }) => `${count} ${table}`).join(', ');
}

async function runSqlite(figures: Figures): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-evidence-'));
  const file = join(dir, 'store.sqlite');
  try {
    await openSqliteStore(file, Date.now, { modules: STORE_MODULES }).close();
    const started = performance.now();
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    seedEvidenceSqlite(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const plans = planChecks('sqlite').map((check) => ({
      check,
      lines: db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${check.sql.text}`)
        .all(...check.params)
        .map((row) => row.detail),
    }));
    db.close();
    log(`  sqlite: seeded ${seeded()} in ${seconds(started)} s (no ANALYZE, as the bot runs none)`);
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

async function runPostgres(figures: Figures): Promise<void> {
  await withPostgresCluster(async (cluster) => {
    log(`  throwaway PostgreSQL cluster on 127.0.0.1:${cluster.port}`);
    await withDatabase(cluster, async (database) => {
      const store = await openPostgresStore(database.url, STORE_MODULES, Date.now);
      try {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const started = performance.now();
          await seedEvidencePostgres(client);
          log(`  postgres: seeded ${seeded()} in ${seconds(started)} s`);
          await client.query('VACUUM ANALYZE record_guild, record_case, record_modcall, record_shift, record_session');
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
  });
}

/** `/case evidence` on both engines, in a guild of {@link EVIDENCE_CASES} cases. */
export async function measureEvidence(figures: Figures): Promise<void> {
  log(`oversight: /case evidence in a guild of ${EVIDENCE_CASES} cases (${PACKS} packs); SQLite, then PostgreSQL`);
  await runSqlite(figures);
  await runPostgres(figures);
}

/** The figures {@link measureEvidence} prints. */
export const EVIDENCE_FIGURES = [
  'oversight.evidence_p99_ms',
  'oversight.evidence_p99_vs_limit',
  'oversight.evidence_pg_p99_ms',
  'oversight.evidence_pg_p99_vs_limit',
] as const;
