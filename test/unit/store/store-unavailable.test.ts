import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../../src/features/index.js';
import { SqlCommunityRecord } from '../../../src/features/record/store/sql-community-record.js';
import { sqliteDialect, type Sql } from '../../../src/store/sql-dialect.js';
import type { SqlRunner } from '../../../src/store/sql-runner.js';
import { SqlSetAside } from '../../../src/store/sql-set-aside.js';
import { migrate } from '../../../src/store/sqlite/migrate.js';
import { isStoreUnavailable } from '../../../src/store/store-unavailable.js';

const T0 = Date.UTC(2026, 10, 20, 12);

/** An error as node-postgres or better-sqlite3 makes it: a message and a code. */
function failure(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe('a failure of the store as a whole', () => {
  it('is told from the failure of one item', () => {
    for (const down of [
      failure('terminating connection due to administrator command', '57P01'),
      failure('connection failure', '08006'),
      failure('could not serialize access', '40001'),
      failure('sorry, too many clients already', '53300'),
      failure('database is locked', 'SQLITE_BUSY'),
      failure('disk I/O error', 'SQLITE_IOERR_WRITE'),
      failure('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      failure('Connection terminated unexpectedly'),
    ]) {
      expect(isStoreUnavailable(down), down.message).toBe(true);
    }
    for (const one of [
      failure('invalid byte sequence for encoding "UTF8": 0x00', '22021'),
      failure('new row violates check constraint', '23514'),
      failure('raised by a trigger', 'P0001'),
      failure('CHECK constraint failed', 'SQLITE_CONSTRAINT_CHECK'),
      failure('no code at all'),
      'a string thrown',
      undefined,
    ]) {
      expect(isStoreUnavailable(one), String(one)).toBe(false);
    }
  });

  it('sets nothing aside: the writer tries the whole slice again when the store is back', async () => {
    const db = new Database(':memory:');
    migrate(db, STORE_MODULES);
    let down = false;
    const engine: SqlRunner = {
      read<Row, Params extends unknown[]>(sql: Sql<Row, Params>, params: Params) {
        return Promise.resolve(db.prepare(sql.text).all(...params) as Row[]);
      },
      write(batch) {
        let changes = 0;
        db.transaction(() => {
          for (const write of batch) changes += db.prepare(write.sql.text).run(...write.params).changes;
        })();
        return Promise.resolve(changes);
      },
      async writeIfFound(guard, batch) {
        if (down) throw failure('terminating connection due to administrator command', '57P01');
        if (db.prepare(guard.sql.text).all(...guard.params).length !== guard.rows) return false;
        await this.write(batch);
        return true;
      },
    };
    const setAside = new SqlSetAside(sqliteDialect, engine);
    const community = new SqlCommunityRecord(sqliteDialect, engine, setAside, () => T0);
    const insert = db.prepare(
      `INSERT INTO delivery (hook_id, delivery_id, guild_id, event, server, received_at, raw_body, state, unrecorded)
       VALUES ('h', ?, 'g', 'modcall', '1', 1, ?, 'posted', 1)`,
    );
    for (const id of ['m-1', 'm-2', 'm-3']) {
      insert.run(id, JSON.stringify({ id, event: 'modcall', at: T0, data: { caller: { robloxId: id, name: id } } }));
    }
    try {
      down = true;
      await expect(community.recordPending(200)).rejects.toThrow('administrator command');
      expect(await setAside.countByJob()).toEqual({ 'record-writer': 0, 'record-sweep': 0 });
      down = false;
      expect(await community.recordPending(200)).toMatchObject({ recorded: 3, setAside: 0 });
    } finally {
      db.close();
    }
  });
});
