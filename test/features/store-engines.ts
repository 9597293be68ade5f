import { STORE_MODULES } from '../../src/features/index.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/** A database of one engine, opened as the bot opens it (every feature's module), as often as a test likes. */
export interface EngineUnderTest {
  /** Opens a store on the engine's database: the same database each time (a restart). */
  open(clock: () => number): Promise<Store>;
  /** Removes the database. */
  dispose(): Promise<void>;
}

/** The engines a feature's store is proven on: SQLite always, PostgreSQL when the run has its cluster. */
export const STORE_ENGINES: ReadonlyArray<{ name: string; skip: boolean; make: () => Promise<EngineUnderTest> }> = [
  {
    name: 'SQLite',
    skip: false,
    make: () => {
      const dir = makeTempDir();
      return Promise.resolve({
        open: (clock) => openStore(`sqlite://${dir.path}/store.sqlite`, STORE_MODULES, clock),
        dispose: () => Promise.resolve(dir.remove()),
      });
    },
  },
  {
    name: 'PostgreSQL',
    skip: !POSTGRES_URL,
    make: async () => {
      const database = await createTestDatabase();
      return { open: (clock) => openStore(database.url, STORE_MODULES, clock), dispose: () => database.drop() };
    },
  },
];
