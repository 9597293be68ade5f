import { describe, expect, it } from 'vitest';

import { recordModule } from '../../src/features/record/store/record-module.js';
import type { MigrationStep } from '../../src/store/migrations/migration-step.js';
import type { StoreModule } from '../../src/store/store-module.js';
import type { Store } from '../../src/store/store.js';
import { storeHarness, type StoreUnderTest } from './store-under-test.js';

const GUILD = '222222222222222222';
const OTHER_GUILD = '333333333333333333';

/** A note a guild keeps: the smallest feature store there is. */
interface Notes {
  add(guildId: string, note: string, at: number | null): Promise<void>;
  of(guildId: string): Promise<Array<{ note: string; at: number | null }>>;
}

const both = (sql: string): Pick<MigrationStep, 'sqlite' | 'postgres'> => ({ sqlite: sql, postgres: sql });
const NOTES_TABLE: MigrationStep = {
  name: 'notes',
  ...both('CREATE TABLE test_note (guild_id TEXT NOT NULL, note TEXT NOT NULL, PRIMARY KEY (guild_id, note))'),
};
const NOTES_AT: MigrationStep = { name: 'notes-at', ...both('ALTER TABLE test_note ADD COLUMN at BIGINT') };

/** A module as a feature of the test's own hands it to the kernel: no list of the store's names it. */
function notesModule(migrations: readonly MigrationStep[]): StoreModule<Notes> {
  return {
    name: 'notes-under-test',
    migrations,
    forgetGuild: [{ sql: 'DELETE FROM test_note WHERE guild_id = ?', counted: 'testNotes' }],
    keptGuilds: ['SELECT guild_id FROM test_note'],
    copied: 'test notes',
    copy: () => Promise.resolve(0),
    open: ({ dialect: d, runner }) => {
      const add = d.sql<never, [string, string, number | null]>(
        'INSERT INTO test_note (guild_id, note, at) VALUES (?, ?, ?)',
      );
      const of = d.sql<{ note: string; at: number | null }, [string]>(
        'SELECT note, at FROM test_note WHERE guild_id = ? ORDER BY note',
      );
      return {
        add: async (guildId, note, at) => {
          await runner.write([{ sql: add, params: [guildId, note, at] }]);
        },
        of: (guildId) => runner.read(of, [guildId]),
      };
    },
  };
}

/**
 * The kernel's side of a feature's store module, proven with a module of the test's own on each engine: its steps
 * applied once and a later step applied on its own, its store opened over the engine's runner, a guild forgotten
 * in it and counted as it says, the guilds it keeps found, and a store a newer version of it migrated refused.
 */
export function describeStoreModulesContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`a feature's store module on ${engine}`, () => {
    const { use } = storeHarness();
    const opened: Store[] = [];
    const openWith = async (underTest: StoreUnderTest, modules: readonly StoreModule[]) => {
      const store = await underTest.openWith(modules, () => 1_000);
      opened.push(store);
      return store;
    };
    const closeAll = async () => {
      for (const store of opened.splice(0)) await store.close();
    };

    it('applies its steps once, then a step added later, and opens its store over the engine', async () => {
      const underTest = await use(makeEngine);
      try {
        const store = await openWith(underTest, [notesModule([NOTES_TABLE])]);
        await store.documents.update('note', GUILD, () => 'the kernel beside the module');
        await closeAll();
        // A later version of the module adds a step, and another module joins the list: only their steps run (the
        // first step again would fail: its table is there).
        const notes = notesModule([NOTES_TABLE, NOTES_AT]);
        const upgraded = await openWith(underTest, [recordModule, notes]);
        await upgraded.of(notes).add(GUILD, 'first', 5);
        await closeAll();
        const again = await openWith(underTest, [recordModule, notes]);
        expect(await again.of(notes).of(GUILD)).toEqual([{ note: 'first', at: 5 }]);
        expect(await again.of(recordModule).settingsOf(GUILD)).toEqual({ retentionDays: 400, staffRoleId: null });
        expect(await again.documents.get('note', GUILD)).toBe('the kernel beside the module');
      } finally {
        await closeAll();
      }
    });

    it('forgets a guild in the module, counted as it says, and knows the guilds it keeps something for', async () => {
      const underTest = await use(makeEngine);
      const notes = notesModule([NOTES_TABLE, NOTES_AT]);
      try {
        const store = await openWith(underTest, [notes]);
        await store.of(notes).add(GUILD, 'one', 1);
        await store.of(notes).add(GUILD, 'two', 2);
        await store.of(notes).add(OTHER_GUILD, 'theirs', 3);
        // Neither guild has a webhook or settings: the module's rows alone keep them known.
        expect((await store.knownGuilds()).sort()).toEqual([GUILD, OTHER_GUILD]);

        expect(await store.forgetGuild(GUILD)).toEqual({
          hooks: 0,
          serverKeys: 0,
          openDeliveries: 0,
          documents: 0,
          testNotes: 2,
        });
        expect(await store.of(notes).of(GUILD)).toEqual([]);
        expect(await store.of(notes).of(OTHER_GUILD)).toEqual([{ note: 'theirs', at: 3 }]);
        expect(await store.knownGuilds()).toEqual([OTHER_GUILD]);
      } finally {
        await closeAll();
      }
    });

    it('answers only for the modules it was opened with, and refuses a store a newer module migrated', async () => {
      const underTest = await use(makeEngine);
      try {
        const store = await openWith(underTest, [notesModule([NOTES_TABLE, NOTES_AT])]);
        expect(() => store.of(recordModule)).toThrow(
          'the store was opened without the record module (src/features/index.ts lists them)',
        );
        await closeAll();
        await expect(underTest.openWith([notesModule([NOTES_TABLE])], () => 1_000)).rejects.toThrow(
          'the store was migrated by a newer version of the bot (step notes-at of notes-under-test',
        );
      } finally {
        await closeAll();
      }
    });
  });
}
