import Database from 'better-sqlite3';
import pg from 'pg';

/** A row of one of the record's tables, by column, as a test writes it straight into the store. */
export type RecordRow = Record<string, string | number | null>;

/**
 * Writes rows straight into a table of the store at `url` (SQLite: over a connection of its own, as an operator's tool
 * would; PostgreSQL: a client of its own), in one transaction: a record as the writer would have merged it.
 */
export async function writeRecordRows(url: string, table: string, rows: readonly RecordRow[]): Promise<void> {
  const [first] = rows;
  if (!first) return;
  const columns = Object.keys(first);
  if (url.startsWith('sqlite://')) {
    const db = new Database(url.slice('sqlite://'.length));
    try {
      db.pragma('busy_timeout = 5000');
      const insert = db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      db.transaction(() => {
        for (const row of rows) insert.run(...columns.map((column) => row[column] ?? null));
      })();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const row of rows) {
      await client.query(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        columns.map((column) => row[column] ?? null),
      );
    }
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}
