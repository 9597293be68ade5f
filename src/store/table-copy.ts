import type { Sql, SqlDialect } from './sql-dialect.js';
import type { SqlRunner, SqlWrite } from './sql-runner.js';

/** A table migrate-store copies as it is, and the columns of its key (what a page is ordered by and continues after). */
export interface CopiedTable {
  table: string;
  key: readonly string[];
}

/** A row of a copied table, every column, as one engine stored it. */
export type TableRow = Readonly<Record<string, unknown>>;

/** Rows read and written at a time: a guild's record may have a million cases. */
const PAGE = 1_000;

/**
 * migrate-store's copy of tables as they are, every column, a page at a time in key order: for a module whose
 * rows need no more than that (the community record's, the quotas' and digests'). A row whose key is in the target
 * already is left as it is, so a second run copies nothing twice. The tables' names and keys are the module's own
 * (never input), and a column name becomes SQL only as the tables spell them.
 */
export class TableCopy {
  private readonly first = new Map<string, Sql<TableRow, [number]>>();
  private readonly after = new Map<string, Sql<TableRow, unknown[]>>();

  constructor(
    private readonly d: SqlDialect,
    private readonly runner: SqlRunner,
    readonly tables: readonly CopiedTable[],
  ) {
    for (const { table, key } of tables) {
      const columns = key.join(', ');
      this.first.set(table, d.sql(`SELECT * FROM ${table} ORDER BY ${columns} LIMIT ?`));
      this.after.set(
        table,
        d.sql(
          `SELECT * FROM ${table} WHERE (${columns}) > (${key.map(() => '?').join(', ')}) ORDER BY ${columns} LIMIT ?`,
        ),
      );
    }
  }

  /** Up to `limit` rows of `table`, in key order, after the row `after` (the last of the previous page; none first). */
  exportRows(table: string, after: TableRow | undefined, limit: number): Promise<TableRow[]> {
    const { key } = this.tableOf(table);
    if (!after) return this.runner.read(this.first.get(table) as Sql<TableRow, [number]>, [limit]);
    return this.runner.read(this.after.get(table) as Sql<TableRow, unknown[]>, [
      ...key.map((column) => after[column]),
      limit,
    ]);
  }

  /** Stores rows another store exported; a row whose key is here already is left as it is. How many were new. */
  importRows(table: string, rows: readonly TableRow[]): Promise<number> {
    const { key } = this.tableOf(table);
    return this.runner.write(rows.map((row) => insertRow(this.d, table, key, row)));
  }

  /** Copies every table into `to` (the same tables on another store), in the order given; how many rows were new. */
  async copyInto(to: TableCopy): Promise<number> {
    let copied = 0;
    for (const { table } of this.tables) {
      let after: TableRow | undefined;
      for (;;) {
        const page = await this.exportRows(table, after, PAGE);
        if (page.length === 0) break;
        copied += await to.importRows(table, page);
        after = page.at(-1);
      }
    }
    return copied;
  }

  private tableOf(table: string): CopiedTable {
    const found = this.tables.find((copied) => copied.table === table);
    if (!found) throw new Error(`${table} is not a table this copy knows`);
    return found;
  }
}

/** What importRows stores: the row's own columns, and nothing over a row already there. */
function insertRow(d: SqlDialect, table: string, key: readonly string[], row: TableRow): SqlWrite {
  const names = Object.keys(row);
  // The names become SQL: only a column name as the tables spell them gets that far.
  const odd = names.find((name) => !/^[a-z_]+$/.test(name));
  if (odd !== undefined) throw new Error(`a ${table} row to import has a column named ${JSON.stringify(odd)}`);
  const sql = d.sql(
    `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})
     ON CONFLICT (${key.join(', ')}) DO NOTHING`,
  );
  return { sql, params: names.map((name) => row[name]) };
}
