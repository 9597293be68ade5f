import type { Database, Statement } from 'better-sqlite3';

import type { Sql } from '../sql-dialect.js';
import type { SqlGuard, SqlRunner, SqlWrite } from '../sql-runner.js';
import type { WriteBatcher } from './write-batcher.js';

/** Shared statements on SQLite: reads at once, writes as one job of the single writer. */
export class SqliteSqlRunner implements SqlRunner {
  /** Each statement prepared once, when first run. */
  private readonly prepared = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly writes: WriteBatcher,
  ) {}

  read<Row, Params extends unknown[]>(sql: Sql<Row, Params>, params: Params): Promise<Row[]> {
    return Promise.resolve(this.statement(sql).all(...params) as Row[]);
  }

  write(writes: readonly SqlWrite[]): Promise<number> {
    return this.writes.run(() => this.runAll(writes));
  }

  writeIfFound(guard: SqlGuard, writes: readonly SqlWrite[]): Promise<boolean> {
    return this.writes.run(() => {
      if (this.statement(guard.sql).all(...guard.params).length !== guard.rows) return false;
      this.runAll(writes);
      return true;
    });
  }

  private runAll(writes: readonly SqlWrite[]): number {
    let changes = 0;
    for (const write of writes) changes += this.statement(write.sql).run(...write.params).changes;
    return changes;
  }

  private statement(sql: Sql): Statement {
    let statement = this.prepared.get(sql.text);
    if (!statement) {
      statement = this.db.prepare(sql.text);
      this.prepared.set(sql.text, statement);
    }
    return statement;
  }
}
