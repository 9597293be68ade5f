import type pg from 'pg';

import { queueStatements, type QueueStatements } from '../queue-statements.js';
import { postgresDialect, type Sql } from '../sql-dialect.js';

/** The queue's statements in PostgreSQL's dialect, made once. */
export const SQL: QueueStatements = queueStatements(postgresDialect);

/** A pool, or a connection inside a transaction. */
export type Queryable = Pick<pg.ClientBase, 'query'>;

/** The rows a shared statement reads, typed by the statement itself. */
export async function rowsOf<Row, Params extends unknown[]>(
  db: Queryable,
  sql: Sql<Row, Params>,
  params: Params,
): Promise<Row[]> {
  const { rows } = await db.query<pg.QueryResultRow, unknown[]>(sql.text, params);
  return rows as Row[];
}

/** Runs a shared statement that writes; how many rows it changed. */
export async function changesOf<Params extends unknown[]>(
  db: Queryable,
  sql: Sql<unknown, Params>,
  params: Params,
): Promise<number> {
  const { rowCount } = await db.query<pg.QueryResultRow, unknown[]>(sql.text, params);
  return rowCount ?? 0;
}
