import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { LocalSignals, type StoreSignal } from '../../../src/store/signals.js';
import { MAX_OPEN_TURNS, WriteBatcher } from '../../../src/store/sqlite/write-batcher.js';

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

  describe('while the event loop is busy', () => {
    /** Counts the event loop's turns (each check phase), so a write can tell in which turn it ran. */
    function turnCounter() {
      let turn = 0;
      let running = true;
      const tick = () => {
        turn += 1;
        if (running) setImmediate(tick);
      };
      setImmediate(tick);
      return { now: () => turn, stop: () => (running = false) };
    }

    /** A write that says in which turn it ran (the turn its batch committed in). */
    function timedWrite(batcher: WriteBatcher, insert: Database.Statement<[string, null]>, turns: { now(): number }) {
      return (id: string) =>
        batcher.run(() => {
          insert.run(id, null);
          return turns.now();
        });
    }

    function nextTurn(): Promise<void> {
      return new Promise((resolve) => setImmediate(resolve));
    }

    it('commits the writes asked for over consecutive turns together, once a turn asks for none', async () => {
      const { batcher, insert, stored } = start();
      const turns = turnCounter();
      const write = timedWrite(batcher, insert, turns);
      // Requests read over three turns of the loop (as those that came in during the last commit's fsync are).
      const asked = [write('a')];
      await nextTurn();
      asked.push(write('b'));
      await nextTurn();
      asked.push(write('c'));
      const ranIn = await Promise.all(asked);
      turns.stop();
      expect(new Set(ranIn).size).toBe(1);
      expect(stored()).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    });

    it('commits a lone write at the next turn that asks for nothing more', async () => {
      const { batcher, insert } = start();
      const turns = turnCounter();
      const askedAt = turns.now();
      const ranIn = await timedWrite(batcher, insert, turns)('alone');
      turns.stop();
      expect(ranIn - askedAt).toBeLessThanOrEqual(3);
    });

    it('does not hold a write back for more than its bound while every turn asks for another', async () => {
      const { batcher, insert, stored } = start();
      const turns = turnCounter();
      const write = timedWrite(batcher, insert, turns);
      const writes: Promise<{ askedAt: number; ranIn: number }>[] = [];
      for (let i = 0; i < 5 * MAX_OPEN_TURNS; i += 1) {
        const askedAt = turns.now();
        writes.push(write(`w${String(i).padStart(3, '0')}`).then((ranIn) => ({ askedAt, ranIn })));
        await nextTurn();
      }
      const ran = await Promise.all(writes);
      turns.stop();
      expect(Math.max(...ran.map(({ askedAt, ranIn }) => ranIn - askedAt))).toBeLessThanOrEqual(MAX_OPEN_TURNS + 2);
      // Several batches committed, each after the one before.
      const batchTurns = [...new Set(ran.map(({ ranIn }) => ranIn))];
      expect(batchTurns.length).toBeGreaterThan(2);
      expect(batchTurns).toEqual([...batchTurns].sort((x, y) => x - y));
      expect(stored()).toHaveLength(5 * MAX_OPEN_TURNS);
    });
  });
});
