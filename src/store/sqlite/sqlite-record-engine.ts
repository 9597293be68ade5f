import type { Database, Statement } from 'better-sqlite3';

import type { RecordEngine, RecordGuard, RecordWrite } from '../record-engine.js';
import type { Sql } from '../sql-dialect.js';
import type { WriteBatcher } from './write-batcher.js';

/** The community record's statements on SQLite: reads at once, writes as one job of the single writer. */
export class SqliteRecordEngine implements RecordEngine {
  /** Each statement prepared once, when first run. */
  private readonly prepared = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly writes: WriteBatcher,
  ) {}

  read<Row, Params extends unknown[]>(sql: Sql<Row, Params>, params: Params): Promise<Row[]> {
    return Promise.resolve(this.statement(sql).all(...params) as Row[]);
  }

  write(writes: readonly RecordWrite[]): Promise<number> {
    return this.writes.run(() => this.runAll(writes));
  }

  writeIfFound(guard: RecordGuard, writes: readonly RecordWrite[]): Promise<boolean> {
    return this.writes.run(() => {
      if (this.statement(guard.sql).all(...guard.params).length !== guard.rows) return false;
      this.runAll(writes);
      return true;
    });
  }

  private runAll(writes: readonly RecordWrite[]): number {
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
