import { createHash } from 'node:crypto';
import type pg from 'pg';

import { madeByLegacy, pendingSteps, stepsOn, type AppliedStep } from '../migrations/plan-migrations.js';
import type { StoreModule } from '../store-module.js';
import { bridgeAcceptPlaced } from './functions/bridge-accept-placed.js';
import type { PostgresFunction } from './functions/postgres-function.js';

/** Serializes migrations between processes starting at once (a session advisory lock, released after). */
const MIGRATION_LOCK = 'bridge.migrations';
/** How many numbered steps the runner before named steps had (`bridge_migration` recorded them). */
const LEGACY_STEPS = 20;
/** The numbered steps that made only accept functions: their bodies are gone, the one in use is a function file. */
const MADE_ONLY_FUNCTIONS = [5, 8, 10];
/**
 * Recorded in `bridge_migration` once named steps run: a version of the bot from before them reads it as a
 * schema newer than it knows and refuses the database, rather than run on tables it does not know of.
 */
const NAMED_STEPS = LEGACY_STEPS + 1;

/** The schema's functions, each applied after the steps whenever its definition differs from the one applied. */
const FUNCTIONS: readonly PostgresFunction[] = [bridgeAcceptPlaced];

/**
 * Brings the database's schema up to date, under an advisory lock, so processes starting together migrate it
 * once: the kernel's steps, then each module's (src/store/migrations/plan-migrations.ts), each in a transaction
 * with its record in `bridge_migration_step`; then each function whose definition changed. A database the
 * numbered runner wrote (`bridge_migration` 1 to 20) has the steps those made recorded first, once. Refuses a
 * database a newer version of the bot migrated.
 */
export async function migrate(client: pg.ClientBase, modules: readonly StoreModule[] = []): Promise<void> {
  await client.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [MIGRATION_LOCK]);
  try {
    const steps = stepsOn('postgres', modules);
    await transact(client, async () => {
      await client.query(`
        CREATE TABLE IF NOT EXISTS bridge_migration (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
        CREATE TABLE IF NOT EXISTS bridge_migration_step (
          module     TEXT NOT NULL,
          name       TEXT NOT NULL,
          applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          PRIMARY KEY (module, name)
        );
        CREATE TABLE IF NOT EXISTS bridge_function (
          name       TEXT PRIMARY KEY,
          hash       TEXT NOT NULL,
          applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );`);
      const { rows } = await client.query<{ version: number | null }>(
        'SELECT max(version) AS version FROM bridge_migration',
      );
      const version = rows[0]?.version ?? 0;
      if (version > NAMED_STEPS) {
        throw new Error(
          `the database was migrated by a newer version of the bot (schema ${version}, this version knows ${NAMED_STEPS}): upgrade the bot`,
        );
      }
      if (version < NAMED_STEPS) {
        for (const { module, name } of madeByLegacy('postgres', steps, version, MADE_ONLY_FUNCTIONS)) {
          await recordStep(client, module, name);
        }
        await client.query('INSERT INTO bridge_migration (version) VALUES ($1)', [NAMED_STEPS]);
      }
    });
    const { rows: applied } = await client.query<AppliedStep>('SELECT module, name FROM bridge_migration_step');
    for (const { module, step, sql } of pendingSteps(steps, applied)) {
      await transact(client, async () => {
        await client.query(sql);
        await recordStep(client, module, step.name);
      });
    }
    for (const fn of FUNCTIONS) await applyFunction(client, fn);
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [MIGRATION_LOCK]);
  }
}

/** Applies `fn` if the database has another definition of it (by its hash), or none. */
async function applyFunction(client: pg.ClientBase, fn: PostgresFunction): Promise<void> {
  const hash = createHash('sha256').update(fn.sql).digest('hex');
  const { rows } = await client.query<{ hash: string | null; present: boolean }>(
    `SELECT (SELECT hash FROM bridge_function WHERE name = $1) AS hash, to_regprocedure($2) IS NOT NULL AS present`,
    [fn.name, fn.signature],
  );
  if (rows[0]?.hash === hash && rows[0].present) return;
  await transact(client, async () => {
    await client.query(fn.sql);
    await client.query(
      `INSERT INTO bridge_function (name, hash) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET hash = EXCLUDED.hash, applied_at = now()`,
      [fn.name, hash],
    );
  });
}

async function recordStep(client: pg.ClientBase, module: string, name: string): Promise<void> {
  await client.query('INSERT INTO bridge_migration_step (module, name) VALUES ($1, $2)', [module, name]);
}

async function transact(client: pg.ClientBase, work: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await work();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
