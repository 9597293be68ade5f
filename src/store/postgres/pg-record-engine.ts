import type pg from 'pg';

import type { RecordEngine, RecordGuard, RecordWrite } from '../record-engine.js';
import type { Sql } from '../sql-dialect.js';
import { changesOf, rowsOf } from './pg-sql.js';
import { inTransaction } from './transaction.js';

/** The community record's statements on PostgreSQL: reads on the pool, writes in one transaction. */
export class PostgresRecordEngine implements RecordEngine {
  constructor(private readonly pool: pg.Pool) {}

  read<Row, Params extends unknown[]>(sql: Sql<Row, Params>, params: Params): Promise<Row[]> {
    return rowsOf(this.pool, sql, params);
  }

  write(writes: readonly RecordWrite[]): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      let changes = 0;
      for (const write of writes) changes += await changesOf(client, write.sql, write.params);
      return changes;
    });
  }

  writeIfFound(guard: RecordGuard, writes: readonly RecordWrite[]): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      if ((await rowsOf(client, guard.sql, guard.params)).length !== guard.rows) return false;
      for (const write of writes) await changesOf(client, write.sql, write.params);
      return true;
    });
  }
}
