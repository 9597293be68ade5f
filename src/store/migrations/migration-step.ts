import type { Database } from 'better-sqlite3';

/**
 * One named step of a schema's history: the kernel's (src/store/migrations/) or a feature's store module's (its
 * `store/migrations/`), one file each. The store records each step it applied by module and name
 * (`bridge_migration_step`), so a step runs once, in a transaction with its record; a step is never edited once
 * released, and a change is a new step at the end of its module's list.
 */
export interface MigrationStep {
  /** Names the step within its module, for good: what the store records it by. */
  readonly name: string;
  /** The step on SQLite; absent: PostgreSQL's only. */
  readonly sqlite?: string;
  /** The step on PostgreSQL; absent: SQLite's only. */
  readonly postgres?: string;
  /**
   * Which of the numbered steps (the runner before named steps: SQLite's `user_version`, PostgreSQL's
   * `bridge_migration`) made what this step makes, on each engine: a store those had brought past it has it
   * already, and is not migrated twice. Absent: a step made after them.
   */
  readonly legacy?: { readonly sqlite?: number; readonly postgres?: number };
}

/** The engines, as a step names them. */
export type MigrationEngine = 'sqlite' | 'postgres';

/** A step of the kernel's own: on SQLite it may also run code in its transaction (the first one's keyv import). */
export interface KernelStep extends MigrationStep {
  readonly sqliteAlso?: (db: Database) => void;
}
