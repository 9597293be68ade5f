import { describe, expect, it } from 'vitest';

import { CHANNEL_A, GUILD, storeHarness, type StoreUnderTest } from './store-under-test.js';

/**
 * The store port's contract for documents (DocumentStore): by kind and key, changed atomically, deleted when a change
 * returns undefined, listed when due, and swept a slice at a time.
 * `engine` names the engine in the test titles.
 */
export function describeDocumentsContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the documents contract on ${engine}`, () => {
    const { start, restart, use } = storeHarness();

    it('gives documents a time: lists the due ones earliest first, sweeps the old ones a slice at a time', async () => {
      await use(makeEngine);
      let store = await start();
      const at = (time: number) => () => time;
      for (const [key, time] of [
        ['e', 50],
        ['c', 30],
        ['a', 10],
        ['b', 30],
        ['d', 40],
      ] as const) {
        await store.documents.update('timed', key, () => ({ key }), at(time));
      }
      await store.documents.update('timed', 'untimed', () => ({ key: 'untimed' }));
      await store.documents.update('other', 'x', () => ({ key: 'x' }), at(1));
      store = await restart(store);

      // Due at or before 30, by time then key; a document without a time is never due; other kinds stay out.
      expect(await store.documents.listDue('timed', 30, 10)).toEqual([
        { key: 'a', value: { key: 'a' }, at: 10 },
        { key: 'b', value: { key: 'b' }, at: 30 },
        { key: 'c', value: { key: 'c' }, at: 30 },
      ]);
      expect((await store.documents.listDue('timed', 1_000, 2)).map((record) => record.key)).toEqual(['a', 'b']);
      // A change may move a document's time, or take it away.
      await store.documents.update('timed', 'a', (current) => current, at(45));
      await store.documents.update('timed', 'b', (current) => current);
      expect((await store.documents.listDue('timed', 1_000, 10)).map((record) => record.key)).toEqual([
        'c',
        'd',
        'a',
        'e',
      ]);
      expect(await store.documents.list('timed')).toContainEqual({ key: 'a', value: { key: 'a' }, at: 45 });
      expect(await store.documents.list('timed')).toContainEqual({ key: 'b', value: { key: 'b' } });

      // Before 46 are c (30), d (40) and a (45): two, then one, then none; the rest and the other kind stay.
      expect(await store.documents.sweepBefore('timed', 46, 2)).toBe(2);
      expect(await store.documents.sweepBefore('timed', 46, 2)).toBe(1);
      expect(await store.documents.sweepBefore('timed', 46, 2)).toBe(0);
      expect((await store.documents.list('timed')).map((record) => record.key)).toEqual(['b', 'e', 'untimed']);
      expect(await store.documents.get('other', 'x')).toEqual({ key: 'x' });
    });

    it('deletes a document whose change returns undefined, leaving nothing behind', async () => {
      await use(makeEngine);
      let store = await start();
      await store.documents.update(
        'card',
        'g:1',
        () => ({ messageId: 'm1' }),
        () => 10,
      );
      expect(await store.documents.update('card', 'g:1', () => undefined)).toBeUndefined();
      // Deleting what is not there is no error, and stores nothing either.
      expect(await store.documents.update('card', 'g:2', () => undefined)).toBeUndefined();
      store = await restart(store);
      expect(await store.documents.get('card', 'g:1')).toBeUndefined();
      expect(await store.documents.list('card')).toEqual([]);
      expect(await store.documents.listDue('card', 1_000, 10)).toEqual([]);
      expect(await store.documents.kinds()).toEqual([]);
    });

    it('keeps documents by kind and key, changes each atomically, and lists the kinds it has', async () => {
      await use(makeEngine);
      let store = await start();
      expect(await store.documents.kinds()).toEqual([]);
      await store.documents.update('card', 'g:1', () => ({ messageId: 'm1' }));
      await store.documents.update('alert_settings', GUILD, () => ({ channelId: CHANNEL_A }));
      await Promise.all(
        Array.from({ length: 20 }, () =>
          store.documents.update('counter', 'x', (current) => (typeof current === 'number' ? current + 1 : 1)),
        ),
      );
      store = await restart(store);
      expect(await store.documents.kinds()).toEqual(['alert_settings', 'card', 'counter']);
      expect(await store.documents.get('counter', 'x')).toBe(20);
      expect(await store.documents.list('card')).toEqual([{ key: 'g:1', value: { messageId: 'm1' } }]);
      await store.documents.delete('card', 'g:1');
      expect(await store.documents.kinds()).toEqual(['alert_settings', 'counter']);
    });

    it('puts documents over whatever was there, with their times or none, and reads several at once', async () => {
      await use(makeEngine);
      let store = await start();
      await store.documents.update('card', 'g:1', () => ({ messageId: 'm1' }));
      await store.documents.put('card', [
        { key: 'g:1', value: { messageId: 'm2' }, at: 20 },
        { key: 'g:2', value: { messageId: 'm3' } },
        // The same key twice in one put: the later stands.
        { key: 'g:3', value: { messageId: 'first' }, at: 5 },
        { key: 'g:3', value: { messageId: 'm4' }, at: 30 },
      ]);
      await store.documents.put('card', []);
      // Concurrent puts of one key: one of them stands, whole.
      await Promise.all(['a', 'b', 'c'].map((id) => store.documents.put('other', [{ key: 'x', value: id, at: 1 }])));
      store = await restart(store);
      expect(await store.documents.list('card')).toEqual([
        { key: 'g:1', value: { messageId: 'm2' }, at: 20 },
        { key: 'g:2', value: { messageId: 'm3' } },
        { key: 'g:3', value: { messageId: 'm4' }, at: 30 },
      ]);
      expect(await store.documents.list('other')).toEqual([
        { key: 'x', value: expect.stringMatching(/^[abc]$/) as unknown, at: 1 },
      ]);
      // Only the keys that have a document, of that kind; none asked, none read.
      expect(await store.documents.getAll('card', ['g:3', 'g:9', 'g:1'])).toEqual(
        new Map<string, unknown>([
          ['g:3', { messageId: 'm4' }],
          ['g:1', { messageId: 'm2' }],
        ]),
      );
      expect(await store.documents.getAll('other', ['g:1'])).toEqual(new Map());
      expect(await store.documents.getAll('card', [])).toEqual(new Map());
      // The times they were given are the ones a due list and a sweep read.
      expect((await store.documents.listDue('card', 25, 10)).map((record) => record.key)).toEqual(['g:1']);
      expect(await store.documents.sweepBefore('card', 31, 10)).toBe(2);
      expect(await store.documents.list('card')).toEqual([{ key: 'g:2', value: { messageId: 'm3' } }]);
    });
  });
}
