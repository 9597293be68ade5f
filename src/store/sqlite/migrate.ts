import type { Database } from 'better-sqlite3';

import { madeByLegacy, pendingSteps, stepsOn, type AppliedStep } from '../migrations/plan-migrations.js';
import type { StoreModule } from '../store-module.js';

/** How many numbered steps the runner before named steps had (`PRAGMA user_version` counted them). */
const LEGACY_STEPS = 16;
/**
 * `user_version` from named steps on: a version of the bot from before them reads it as a schema newer than it
 * knows and refuses the file, rather than run on tables it does not know of.
 */
const NAMED_STEPS = LEGACY_STEPS + 1;

/**
 * Brings the file's schema up to date: the kernel's steps, then each module's (../migrations/plan-migrations.ts).
 * Each step runs once, in a transaction with its record in `bridge_migration_step`, so a crash
 * mid-migration leaves the previous steps whole. A file the numbered runner wrote (`user_version` 1 to 16) has
 * the steps those made recorded first, once. Refuses a file written by a newer version of the bot.
 */
export function migrate(db: Database, modules: readonly StoreModule[] = []): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > NAMED_STEPS) {
    throw new Error(
      `the store file was written by a newer version of the bot (schema ${version}, this version knows ${NAMED_STEPS}): upgrade the bot`,
    );
  }
  const steps = stepsOn('sqlite', modules);
  db.exec(`CREATE TABLE IF NOT EXISTS bridge_migration_step (
    module     TEXT NOT NULL,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL,
    PRIMARY KEY (module, name)
  )`);
  const record = db.prepare<[string, string, number]>(
    'INSERT INTO bridge_migration_step (module, name, applied_at) VALUES (?, ?, ?)',
  );
  db.transaction(() => {
    if (version < NAMED_STEPS) {
      for (const { module, name } of madeByLegacy('sqlite', steps, version)) record.run(module, name, Date.now());
      db.pragma(`user_version = ${NAMED_STEPS}`);
    }
  }).immediate();
  const applied = db.prepare<[], AppliedStep>('SELECT module, name FROM bridge_migration_step').all();
  for (const { module, step, sql } of pendingSteps(steps, applied)) {
    db.transaction(() => {
      db.exec(sql);
      step.sqliteAlso?.(db);
      record.run(module, step.name, Date.now());
    }).immediate();
  }
}
