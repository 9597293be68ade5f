import Database from 'better-sqlite3';
import pg from 'pg';

import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import type { StoreModule } from '../../src/store/store-module.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, POSTGRES_URL } from './postgres-database.js';
import { makeTempDir } from './temp-dir.js';

/** A database of one engine for one test: stores opened on it, SQL run on it as an operator's tool would. */
export interface EngineDatabase {
  /** `sqlite://…` or `postgres://…`. */
  url: string;
  open(clock?: () => number, modules?: readonly StoreModule[]): Promise<Store>;
  /** Runs SQL over a connection of its own (several statements at once). */
  exec(sql: string): Promise<void>;
  /** The rows of a query over a connection of its own. */
  query<Row>(sql: string): Promise<Row[]>;
  dispose(): Promise<void>;
}

/** One engine the store runs on, and how a test makes a database of it. */
export interface StoreEngine {
  name: 'SQLite' | 'PostgreSQL';
  /** False where the run has no PostgreSQL cluster. */
  available: boolean;
  create: () => Promise<EngineDatabase>;
}

async function sqliteDatabase(): Promise<EngineDatabase> {
  const dir = makeTempDir('bridge-engine-');
  const file = `${dir.path}/bot.sqlite`;
  const onFile = <T>(work: (db: Database.Database) => T): T => {
    const db = new Database(file);
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  return Promise.resolve({
    url: `sqlite://${file}`,
    open: (clock = Date.now, modules = STORE_MODULES) => openStore(`sqlite://${file}`, modules, clock),
    exec: (sql) => Promise.resolve(onFile((db) => void db.exec(sql))),
    query: <Row>(sql: string) => Promise.resolve(onFile((db) => db.prepare(sql).all() as Row[])),
    dispose: () => Promise.resolve(dir.remove()),
  });
}

async function postgresDatabase(): Promise<EngineDatabase> {
  const database = await createTestDatabase();
  const onDatabase = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    url: database.url,
    open: (clock = Date.now, modules = STORE_MODULES) => openStore(database.url, modules, clock),
    exec: (sql) => onDatabase(async (client) => void (await client.query(sql))),
    query: <Row>(sql: string) => onDatabase(async (client) => (await client.query(sql)).rows as Row[]),
    dispose: () => database.drop(),
  };
}

/** Both engines, for a test that proves the same thing on each (`describe.each` over them, skipped where absent). */
export const STORE_ENGINES: readonly StoreEngine[] = [
  { name: 'SQLite', available: true, create: sqliteDatabase },
  { name: 'PostgreSQL', available: Boolean(POSTGRES_URL), create: postgresDatabase },
];
