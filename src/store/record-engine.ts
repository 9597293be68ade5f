import type { Sql } from './sql-dialect.js';

/** A statement and the values it binds. */
export interface RecordWrite {
  sql: Sql;
  params: unknown[];
}

/**
 * What the community record needs of an engine to run its shared statements (record-statements.ts): reads, and
 * writes in one transaction. The record itself is written once, over this (sql-community-record.ts).
 */
export interface RecordEngine {
  read<Row, Params extends unknown[]>(sql: Sql<Row, Params>, params: Params): Promise<Row[]>;
  /** Runs the writes in one transaction; how many rows they changed in all. */
  write(writes: readonly RecordWrite[]): Promise<number>;
  /**
   * Runs the writes in one transaction if the guard, read first in that transaction, still finds all its rows
   * (and, on PostgreSQL, keeps them from being deleted until it commits); false, nothing written, if not.
   */
  writeIfFound(guard: RecordGuard, writes: readonly RecordWrite[]): Promise<boolean>;
}

/** A read the writes of {@link RecordEngine.writeIfFound} depend on, and how many rows it must find. */
export interface RecordGuard {
  sql: Sql;
  params: unknown[];
  rows: number;
}
