import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { STORE_MODULES } from '../../../../src/features/index.js';
import { openStore } from '../../../../src/store/open-store.js';
import type { Store } from '../../../../src/store/store.js';
import { createTestDatabase, POSTGRES_URL } from '../../../helpers/postgres-database.js';

/** A database of one engine: its store URL, and its removal. */
export interface EngineDatabase {
  url: string;
  drop(): Promise<void>;
}

/** The engines the staff actions' store tests run on; PostgreSQL when the suite has its cluster. */
export const ENGINES = [
  {
    name: 'SQLite',
    skip: false,
    make: (): Promise<EngineDatabase> => {
      const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'staff-'));
      return Promise.resolve({
        url: `sqlite://${dir}/store.sqlite`,
        drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
      });
    },
  },
  {
    name: 'PostgreSQL',
    skip: !POSTGRES_URL,
    make: async (): Promise<EngineDatabase> => {
      const database = await createTestDatabase();
      return { url: database.url, drop: () => database.drop() };
    },
  },
] as const;

/** Opens a store with every feature's module on the database, its clock read from `now`. */
export function openTestStore(database: EngineDatabase, now: { ms: number }): Promise<Store> {
  return openStore(database.url, STORE_MODULES, () => now.ms);
}
