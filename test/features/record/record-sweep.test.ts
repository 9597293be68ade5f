import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../../src/features/index.js';
import { SqlCommunityRecord } from '../../../src/features/record/store/sql-community-record.js';
import { sqliteDialect, type Sql } from '../../../src/store/sql-dialect.js';
import type { SqlRunner, SqlWrite } from '../../../src/store/sql-runner.js';
import { SqlSetAside } from '../../../src/store/sql-set-aside.js';
import { migrate } from '../../../src/store/sqlite/migrate.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20, 12);
const GUILDS = 300;

/** The record's statements on an in-memory SQLite database, each read and write kept to be counted. */
function countingRecord() {
  const db = new Database(':memory:');
  migrate(db, STORE_MODULES);
  const reads: string[] = [];
  const writes: SqlWrite[] = [];
  const engine: SqlRunner = {
    read<Row, Params extends unknown[]>(sql: Sql<Row, Params>, params: Params) {
      reads.push(sql.text);
      return Promise.resolve(db.prepare(sql.text).all(...params) as Row[]);
    },
    write(batch) {
      writes.push(...batch);
      let changes = 0;
      db.transaction(() => {
        for (const write of batch) changes += db.prepare(write.sql.text).run(...write.params).changes;
      })();
      return Promise.resolve(changes);
    },
    writeIfFound: () => Promise.reject(new Error('the sweep never merges')),
  };
  const community = new SqlCommunityRecord(sqliteDialect, engine, new SqlSetAside(sqliteDialect, engine), () => T0);
  return { db, reads, writes, community };
}

function guildId(i: number): string {
  return String(222_000_000_000_000_000n + BigInt(i));
}

/** The guilds the writes of a sweep touched (every sweep statement binds the guild first). */
function guildsWritten(writes: readonly SqlWrite[]): Set<unknown> {
  return new Set(writes.map((write) => write.params[0]));
}

describe("the record's retention sweep", () => {
  let db: Database.Database | undefined;
  afterEach(() => db?.close());

  it('reads only the guilds with rows past their retention, however many guilds have a record', async () => {
    const record = countingRecord();
    db = record.db;
    for (let i = 0; i < GUILDS; i += 1) {
      // Guild 7's call is 401 days old; every other guild's is a day old.
      const at = i === 7 ? T0 - 401 * DAY : T0 - DAY;
      await record.community.noteModcallHandled(guildId(i), '1', [{ callerId: '9001', at, callerName: 'Bob' }], {});
    }
    record.reads.length = 0;
    record.writes.length = 0;

    expect(await record.community.sweep(T0)).toBe(1);
    expect(record.reads).toHaveLength(1);
    expect([...guildsWritten(record.writes)]).toEqual([guildId(7)]);

    // Swept, the guild is due again only when its oldest row left is: nothing to read or write an hour later.
    record.reads.length = 0;
    record.writes.length = 0;
    expect(await record.community.sweep(T0 + 3_600_000)).toBe(0);
    expect(record.reads).toHaveLength(1);
    expect(record.writes).toEqual([]);

    // 400 days on, every guild's call is past the retention: each is visited once, in pages.
    record.writes.length = 0;
    expect(await record.community.sweep(T0 + 400 * DAY)).toBe(GUILDS - 1);
    expect(guildsWritten(record.writes).size).toBe(GUILDS - 1);
  });

  it('sweeps a guild again when a late delivery brings an older row, or an admin shortens its retention', async () => {
    const record = countingRecord();
    db = record.db;
    const guild = guildId(1);
    const call = (at: number, callerId = '9001') => [{ callerId, at, callerName: 'Bob' }];
    await record.community.noteModcallHandled(guild, '1', call(T0 - 10 * DAY), {});
    expect(await record.community.sweep(T0)).toBe(0);

    // A call 500 days old arrives late: due at once.
    await record.community.noteModcallHandled(guild, '1', call(T0 - 500 * DAY, '9002'), {});
    expect(await record.community.sweep(T0)).toBe(1);

    // 7 days' retention: the 10-day-old call goes at the next sweep.
    await record.community.setRetentionDays(guild, 7);
    expect(await record.community.sweep(T0)).toBe(1);
    expect(await record.community.sweep(T0)).toBe(0);
  });
});
