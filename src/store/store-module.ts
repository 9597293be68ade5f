import type { MigrationStep } from './migrations/migration-step.js';
import type { PersonRows } from './person-rows.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlRunner } from './sql-runner.js';
import type { SqlSetAside } from './sql-set-aside.js';

/** What the kernel lends a module when it opens the module's store: the engine's runner and dialect, and more. */
export interface ModuleParts {
  /** Runs the module's statements on the store's engine (on SQLite, its writes are jobs of the single writer). */
  runner: SqlRunner;
  /** The engine's dialect: the module's statements are made with it once, when its store is opened. */
  dialect: SqlDialect;
  /** The items a batch job set aside (set-aside.ts), for a module whose job sets items aside. */
  setAside: SqlSetAside;
  /** The clock the store was opened with (tests pass their own). */
  clock: () => number;
}

/** A statement that deletes a guild's rows from one of a module's tables, binding the guild id once (`?`). */
export interface GuildRows {
  sql: string;
  /** What {@link ForgottenGuild} counts the rows it deleted under (none: not counted). */
  counted?: string;
}

/**
 * What a feature with tables hands the store kernel: its tables' migrations, what forgetting a guild deletes of
 * them, which guilds it keeps something for, how its rows are copied between stores, and how its own store is
 * opened. The kernel applies every module's migrations after its own (in the features' list order), runs the
 * modules' deletes in the transaction that forgets a guild, and opens each module's store with the engine's SQL
 * runner, so a feature's store is written once for both engines and neither engine names its tables. (The items
 * set aside still name the record's two jobs, and their retry at once the record sweep's table: set-aside.ts.)
 * The list is the features' (src/features/index.ts), given to `openStore`.
 */
export interface StoreModule<Own = unknown> {
  /** Names the module in the migrations' table and in errors: its feature's folder. */
  readonly name: string;
  /** Its named steps, in order, each for both engines (one file a step, in the feature's `store/migrations/`). */
  readonly migrations: readonly MigrationStep[];
  /** What forgetting a guild deletes, in the same transaction as the kernel's part. */
  readonly forgetGuild: readonly GuildRows[];
  /**
   * The rows of its tables that name a person (a player or a member), as `/record mine` lists them and forgetting
   * the person deletes or anonymises them, in the transaction every module's run in. Absent: none.
   */
  readonly personRows?: readonly PersonRows[];
  /** Statements selecting `guild_id` of the guilds it keeps something for (a forgotten guild has none). */
  readonly keptGuilds: readonly string[];
  /** What migrate-store's summary calls what {@link copy} counts ("audit entries"). */
  readonly copied: string;
  /** migrate-store: copies the module's rows from one store into another; how many (see {@link copied}). */
  copy(from: Own, to: Own): Promise<number>;
  /** Makes the feature's store over the kernel's parts; called once per store opened. */
  open(parts: ModuleParts): Own;
}

/** Each module's own store, by the module (what `Store.of` answers). */
export type ModuleStores = <Own>(module: StoreModule<Own>) => Own;

/** Opens each module's store over `parts`; asking for a module the store was not opened with throws. */
export function openModules(modules: readonly StoreModule[], parts: ModuleParts): ModuleStores {
  const opened = new Map<StoreModule, unknown>(modules.map((module) => [module, module.open(parts)]));
  return <Own>(module: StoreModule<Own>): Own => {
    if (!opened.has(module)) {
      throw new Error(`the store was opened without the ${module.name} module (src/features/index.ts lists them)`);
    }
    return opened.get(module) as Own;
  };
}
