import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Keyv } from 'keyv';

import { GroupCommitSqlite } from './group-commit-sqlite.js';

/** Makes one keyv per record kind; all share the backend that `STORE_URL` names. */
export interface KeyvFactory {
  /** A keyv whose keys live apart from every other namespace's. */
  open(namespace: string): Promise<Keyv>;
  /** Closes every connection the factory opened. */
  close(): Promise<void>;
  /** What kind of backend this is, for /healthz and logs (never the URL: it may hold a password). */
  readonly kind: 'memory' | 'sqlite';
}

/**
 * Why these settings: WAL lets the feed read while the intake writes, and commits append to the log instead
 * of rewriting pages. `synchronous=FULL` fsyncs the log at every commit, so a delivery we answered 2xx for
 * survives a crash of the process and of the machine. Group commit (GroupCommitSqlite) shares one fsync among
 * the writes that arrive together, which makes FULL affordable; `npm run bench -- store` measures it against NORMAL.
 */
export const SQLITE_PRAGMAS = ['PRAGMA journal_mode=WAL', 'PRAGMA synchronous=FULL', 'PRAGMA busy_timeout=5000'];

/** Builds the factory for `memory://`, `sqlite://<path>` (relative paths from the working directory). */
export function createKeyvFactory(storeUrl: string): KeyvFactory {
  if (storeUrl === 'memory://' || storeUrl === 'memory') return createMemoryFactory();
  if (storeUrl.startsWith('sqlite://')) return createSqliteFactory(storeUrl.slice('sqlite://'.length));
  throw new Error(`unsupported STORE_URL scheme: ${storeUrl.split(':')[0] ?? ''}`);
}

function createMemoryFactory(): KeyvFactory {
  return {
    kind: 'memory',
    open: (namespace) => Promise.resolve(new Keyv({ store: new Map(), namespace, throwOnErrors: true })),
    close: () => Promise.resolve(),
  };
}

function createSqliteFactory(path: string): KeyvFactory {
  const file = path === ':memory:' ? path : resolve(path);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const adapters: GroupCommitSqlite[] = [];
  return {
    kind: 'sqlite',
    async open(namespace) {
      // One table and one connection per namespace: keyv's iterator then scans only this kind of record,
      // and no two keyv instances fight over one adapter's namespace.
      const adapter = new GroupCommitSqlite({
        uri: `sqlite://${file}`,
        table: namespace.replace(/\W/g, '_'),
        busyTimeout: 5000,
        iterationLimit: 500,
      });
      for (const pragma of SQLITE_PRAGMAS) await adapter.query(pragma);
      adapters.push(adapter);
      // A failed write must fail the caller (the intake then answers 500 and the service retries); keyv
      // would otherwise report it only as an event and resolve as if the write had happened.
      return new Keyv({ store: adapter, namespace, throwOnErrors: true, serialize: toJson, deserialize: fromJson });
    },
    async close() {
      await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
    },
  };
}

/**
 * Records are plain JSON (every record kind has a zod schema of JSON values), so plain JSON is their stored
 * form: keyv's default serializer also encodes Buffers and escapes strings, at twice the cost per write.
 */
const toJson = (data: unknown): string => JSON.stringify(data);
const fromJson = <Value>(text: string) => JSON.parse(text) as { value?: Value; expires?: number | undefined };
