import type pg from 'pg';

import type { Sql } from '../sql-dialect.js';
import type { SqlGuard, SqlRunner, SqlWrite } from '../sql-runner.js';
import { changesOf, rowsOf } from './pg-sql.js';
import { inTransaction } from './transaction.js';

/** Shared statements on PostgreSQL: reads on the pool, writes in one transaction. */
export class PostgresSqlRunner implements SqlRunner {
  constructor(private readonly pool: pg.Pool) {}

  read<Row, Params extends unknown[]>(sql: Sql<Row, Params>, params: Params): Promise<Row[]> {
    return rowsOf(this.pool, sql, params);
  }

  write(writes: readonly SqlWrite[]): Promise<number> {
    // One statement is a transaction of its own: no BEGIN and COMMIT, two round trips fewer (an audit line, a
    // setting).
    const [only] = writes;
    if (only && writes.length === 1) return changesOf(this.pool, only.sql, only.params);
    return inTransaction(this.pool, async (client) => {
      let changes = 0;
      for (const write of writes) changes += await changesOf(client, write.sql, write.params);
      return changes;
    });
  }

  writeIfFound(guard: SqlGuard, writes: readonly SqlWrite[]): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      if ((await rowsOf(client, guard.sql, guard.params)).length !== guard.rows) return false;
      for (const write of writes) await changesOf(client, write.sql, write.params);
      return true;
    });
  }
}
