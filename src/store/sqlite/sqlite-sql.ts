import type { Database, Statement } from 'better-sqlite3';

import { queueStatements, type QueueStatements } from '../queue-statements.js';
import { sqliteDialect, type Sql } from '../sql-dialect.js';

/** The queue's statements in SQLite's dialect, made once. */
export const SQL: QueueStatements = queueStatements(sqliteDialect);

/** A shared statement prepared on `db`, typed by the statement itself. */
export function prepare<Row, Params extends unknown[]>(db: Database, sql: Sql<Row, Params>): Statement<Params, Row> {
  return db.prepare<Params, Row>(sql.text);
}
