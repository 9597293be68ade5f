import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/**
 * docs/privacy.md names every table of the store, with what it holds about people and for how long: a table added
 * to either engine's schema fails here until the document names it, and a table the document names that the
 * schema no longer has fails here too. The tables are read from a store the bot itself opened and migrated (its
 * catalogue: sqlite_master, information_schema), not from the code, so this holds wherever the schema is written.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCUMENT = 'docs/privacy.md';
const SECTION = '## Every table of the store';

type Engine = 'SQLite' | 'PostgreSQL';

/** A table as the document names it: the engine it says it is on only, if any. */
interface NamedTable {
  name: string;
  only: Engine | undefined;
}

/**
 * The tables the document's table section names: the first cell of each row of its table, `` `name` ``, with
 * "(PostgreSQL only)" or "(SQLite only)" after it for a table of one engine.
 */
function tablesNamedIn(text: string): NamedTable[] {
  const start = text.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`${DOCUMENT} has no section "${SECTION}"`);
  const end = text.indexOf('\n## ', start + SECTION.length + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const named: NamedTable[] = [];
  for (const [, name = '', rest = ''] of section.matchAll(/^\|\s*`([a-z0-9_]+)`([^|]*)\|/gm)) {
    const only = /\((PostgreSQL|SQLite) only\)/.exec(rest)?.[1] as Engine | undefined;
    named.push({ name, only });
  }
  return named;
}

/** What the document gets wrong about one engine's tables: those it does not name, and those it names that are not. */
function compareTables(found: readonly string[], named: readonly NamedTable[], engine: Engine) {
  const expected = named.filter((table) => table.only === undefined || table.only === engine).map(({ name }) => name);
  return {
    notNamed: found.filter((table) => !expected.includes(table)).sort(),
    notInSchema: expected.filter((table) => !found.includes(table)).sort(),
  };
}

function readDocument(): string {
  return readFileSync(join(ROOT, DOCUMENT), 'utf8');
}

/** The tables of a fresh SQLite store, as the bot opens and migrates it (SQLite's own `sqlite_…` left out). */
async function sqliteTables(): Promise<string[]> {
  const dir = makeTempDir('bridge-privacy-');
  try {
    const file = join(dir.path, 'bot.sqlite');
    await (await openStore(`sqlite://${file}`, STORE_MODULES)).close();
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare<[], { name: string }>(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`,
        )
        .all()
        .map((row) => row.name);
    } finally {
      db.close();
    }
  } finally {
    dir.remove();
  }
}

/** The tables of a fresh PostgreSQL store, as the bot opens and migrates it. */
async function postgresTables(): Promise<string[]> {
  const database = await createTestDatabase();
  try {
    await (await openStore(database.url, STORE_MODULES)).close();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
      );
      return rows.map((row) => row.table_name);
    } finally {
      await client.end();
    }
  } finally {
    await database.drop();
  }
}

describe('docs/privacy.md', () => {
  it('names every table of a fresh SQLite store, and no table it does not have', async () => {
    const found = await sqliteTables();
    expect(found).toContain('record_case');
    expect(compareTables(found, tablesNamedIn(readDocument()), 'SQLite')).toEqual({ notNamed: [], notInSchema: [] });
  });

  it.skipIf(!POSTGRES_URL)('names every table of a fresh PostgreSQL store, and no table it does not have', async () => {
    const found = await postgresTables();
    expect(found).toContain('record_case');
    expect(compareTables(found, tablesNamedIn(readDocument()), 'PostgreSQL')).toEqual({
      notNamed: [],
      notInSchema: [],
    });
  });

  it('tells a table the document does not name, one it names that is gone, and one of the other engine', () => {
    const text = [
      '# Privacy',
      '',
      SECTION,
      '',
      '| Table | What |',
      '| --- | --- |',
      '| `delivery` | bodies |',
      '| `dropped_table` | gone |',
      '| `feed_lease` (PostgreSQL only) | epochs |',
      '',
      '## The features’ documents',
      '',
      '| `card` | not a table |',
    ].join('\n');
    const named = tablesNamedIn(text);
    expect(named).toEqual([
      { name: 'delivery', only: undefined },
      { name: 'dropped_table', only: undefined },
      { name: 'feed_lease', only: 'PostgreSQL' },
    ]);
    expect(compareTables(['delivery', 'scratch_people'], named, 'SQLite')).toEqual({
      notNamed: ['scratch_people'],
      notInSchema: ['dropped_table'],
    });
    expect(compareTables(['delivery', 'dropped_table'], named, 'PostgreSQL')).toEqual({
      notNamed: [],
      notInSchema: ['feed_lease'],
    });
  });
});
