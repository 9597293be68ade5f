import type { Sql } from './sql-dialect.js';

/** A statement and the values it binds. */
export interface SqlWrite {
  sql: Sql;
  params: unknown[];
}

/**
 * The SQL runner each engine gives: it runs statements written once for both engines (sql-dialect.ts), reads,
 * and writes in one transaction. What is written over it (the set-aside items, and each feature's store module,
 * store-module.ts) is written once for both engines; on SQLite its writes are jobs of the single writer.
 */
export interface SqlRunner {
  read<Row, Params extends unknown[]>(sql: Sql<Row, Params>, params: Params): Promise<Row[]>;
  /** Runs the writes in one transaction; how many rows they changed in all. */
  write(writes: readonly SqlWrite[]): Promise<number>;
  /**
   * Runs the writes in one transaction if the guard, read first in that transaction, still finds all its rows
   * (and, on PostgreSQL, keeps them from being deleted until it commits); false, nothing written, if not.
   */
  writeIfFound(guard: SqlGuard, writes: readonly SqlWrite[]): Promise<boolean>;
}

/** A read the writes of {@link SqlRunner.writeIfFound} depend on, and how many rows it must find. */
export interface SqlGuard {
  sql: Sql;
  params: unknown[];
  rows: number;
}
