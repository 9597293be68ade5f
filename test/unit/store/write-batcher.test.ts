import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { LocalSignals, type StoreSignal } from '../../../src/store/signals.js';
import { WriteBatcher } from '../../../src/store/sqlite/write-batcher.js';

/**
 * The SQLite store's group commit: the writes of one moment share a transaction, yet each caller hears only
 * its own write's outcome, and only once the batch committed.
 */
describe('WriteBatcher', () => {
  const open: Database.Database[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  function start() {
    const db = new Database(':memory:');
    open.push(db);
    db.pragma('foreign_keys = ON');
    db.exec(`
      CREATE TABLE parent (id TEXT PRIMARY KEY);
      CREATE TABLE child (
        id TEXT PRIMARY KEY,
        parent_id TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED
      );`);
    const signals = new LocalSignals();
    const heard: StoreSignal[] = [];
    signals.subscribe((signal) => heard.push(signal));
    const batcher = new WriteBatcher(db, signals);
    const insert = db.prepare<[string, string | null]>('INSERT INTO child (id, parent_id) VALUES (?, ?)');
    const stored = () => db.prepare<[], { id: string }>('SELECT id FROM child ORDER BY id').all();
    const work = (id: string, parentId: string | null = null) =>
      batcher.run((tx) => {
        insert.run(id, parentId);
        tx.afterCommit({ kind: 'work', channelId: `c-${id}`, guildId: 'g', at: 1 });
        return id;
      });
    return { db, batcher, heard, insert, stored, work };
  }

  it('commits the writes of one moment together, and undoes and rejects only the one that throws', async () => {
    const { batcher, heard, insert, stored, work } = start();
    const writes = [
      work('a'),
      // Inserts, then throws: its row must go with it, the others' rows stay.
      batcher.run((tx) => {
        insert.run('broken', null);
        tx.afterCommit({ kind: 'work', channelId: 'c-broken', guildId: 'g', at: 1 });
        throw new Error('this write fails');
      }),
      work('b'),
      // A second copy of a primary key: refused by the database, alone.
      work('a'),
      work('c'),
    ];
    const settled = await Promise.allSettled(writes);
    expect(settled.map((result) => (result.status === 'fulfilled' ? result.value : String(result.reason)))).toEqual([
      'a',
      'Error: this write fails',
      'b',
      expect.stringContaining('UNIQUE constraint failed'),
      'c',
    ]);
    expect(stored()).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    // Only the writes that committed announce anything.
    expect(heard.map((signal) => signal.kind === 'work' && signal.channelId)).toEqual(['c-a', 'c-b', 'c-c']);
  });

  it('rejects every write of a batch whose commit fails, stores none of them, and commits the next batch', async () => {
    const { heard, stored, work } = start();
    // A deferred foreign key is checked at COMMIT: the batch's commit itself fails.
    const failing = await Promise.allSettled([work('x'), work('y', 'no-such-parent'), work('z')]);
    expect(failing.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((failing[0] as PromiseRejectedResult).reason)).toContain('FOREIGN KEY constraint failed');
    expect(stored()).toEqual([]);
    expect(heard).toEqual([]);

    expect(await Promise.all([work('x'), work('z')])).toEqual(['x', 'z']);
    expect(stored()).toEqual([{ id: 'x' }, { id: 'z' }]);
    expect(heard).toHaveLength(2);
  });

  it('runs a write asked for while a batch commits in the next batch, after it', async () => {
    const { batcher, db, stored, work } = start();
    const order: string[] = [];
    const first = batcher.run(() => {
      db.prepare('INSERT INTO child (id) VALUES (?)').run('first');
      // Asked for from inside a running write: it cannot join this batch's transaction any more.
      void work('second').then(() => order.push('second'));
      return 'first';
    });
    await first.then(() => order.push('first'));
    await expect.poll(() => order).toEqual(['first', 'second']);
    expect(stored()).toEqual([{ id: 'first' }, { id: 'second' }]);
  });

  it('runs each write once when none throws, and each of the others again, undone first, when one does', async () => {
    const { batcher, insert, stored, work } = start();
    const runs = new Map<string, number>();
    const counted = (id: string, fails = false) =>
      batcher.run(() => {
        runs.set(id, (runs.get(id) ?? 0) + 1);
        insert.run(id, null);
        if (fails) throw new Error(`${id} fails`);
        return id;
      });
    expect(await Promise.all([counted('a'), counted('b'), work('c')])).toEqual(['a', 'b', 'c']);
    expect(Object.fromEntries(runs)).toEqual({ a: 1, b: 1 });

    runs.clear();
    const settled = await Promise.allSettled([counted('d'), counted('e', true), counted('f')]);
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // The first run stopped at e's throw and was undone whole; the second ran each write in its savepoint.
    expect(Object.fromEntries(runs)).toEqual({ d: 2, e: 2, f: 1 });
    expect(stored()).toEqual(['a', 'b', 'c', 'd', 'f'].map((id) => ({ id })));
  });

  it('holds a batch open while each turn of the event loop adds writes, then commits them together', async () => {
    const { batcher, insert } = start();
    const events: string[] = [];
    const write = (id: string) =>
      batcher
        .run(() => {
          insert.run(id, null);
          events.push(`ran ${id}`);
        })
        .then(() => events.push(`committed ${id}`));
    // Writes arriving turn after turn, as requests read while the last batch's fsync blocked the thread.
    const asked: Promise<unknown>[] = [];
    const askEachTurn = (ids: string[]) => {
      const [id, ...rest] = ids;
      if (id === undefined) return;
      asked.push(write(id));
      setImmediate(() => askEachTurn(rest));
    };
    askEachTurn(['t1', 't2', 't3']);
    await expect.poll(() => asked.length).toBe(3);
    await Promise.all(asked);
    expect(events).toEqual(['ran t1', 'ran t2', 'ran t3', 'committed t1', 'committed t2', 'committed t3']);
  });

  it('commits a batch after at most six turns held open, however long the writes keep coming', async () => {
    const { batcher, insert } = start();
    const ran: string[] = [];
    let firstCommittedAfter: number | undefined;
    const asked: Promise<unknown>[] = [];
    const askEachTurn = (turn: number) => {
      if (turn === 20) return;
      const id = `t${turn}`;
      asked.push(
        batcher
          .run(() => {
            insert.run(id, null);
            ran.push(id);
          })
          .then(() => {
            if (turn === 0) firstCommittedAfter = ran.length;
          }),
      );
      setImmediate(() => askEachTurn(turn + 1));
    };
    askEachTurn(0);
    await expect.poll(() => asked.length).toBe(20);
    await Promise.all(asked);
    // The first batch took the first write and at most one more a turn for six turns.
    expect(firstCommittedAfter).toBeGreaterThan(1);
    expect(firstCommittedAfter).toBeLessThanOrEqual(7);
    expect(ran).toHaveLength(20);
  });
});
