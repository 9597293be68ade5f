import type { Columns, RowOf } from './table-columns.js';
import type { Engine, Tables } from './tables.js';

/**
 * A statement written once for both engines: its text in this engine's dialect, with the row type it reads and
 * the parameters it binds (phantom fields, for the compiler only), so neither engine restates them.
 */
export interface Sql<Row = unknown, Params extends unknown[] = unknown[]> {
  readonly text: string;
  readonly row?: Row;
  readonly params?: Params;
}

/**
 * What differs between the engines in the statements they share. Statements are written with `?` for each
 * parameter, in the order they are bound; {@link SqlDialect.sql} turns that into the engine's own placeholders
 * once, when the engine's statements are made, so no query pays for it. `E` is the engine, whose rows a
 * statement made by {@link SqlDialect.select} reads; statements both engines share are made with either.
 */
export interface SqlDialect<E extends Engine = Engine> {
  sql<Row = unknown, Params extends unknown[] = unknown[]>(text: string): Sql<Row, Params>;
  /** `SELECT columns FROM …`: the statement's row type is computed from the columns it selects. */
  select<Table extends keyof Tables, Name extends keyof Tables[Table]>(
    columns: Columns<Table, Name>,
  ): Select<RowOf<Columns<Table, Name>, E>>;
  /** A test that `column` is one of a list of numbers bound as one parameter (see `list`). */
  inList(column: string): string;
  /** The value bound for {@link SqlDialect.inList}. */
  list(values: readonly number[]): unknown;
  /** A test that a boolean column is true. */
  isTrue(column: string): string;
  /** The value bound for a boolean column. */
  bool(value: boolean): unknown;
  /** Names the index a statement must use where the engine's planner would read more (SQLite); else nothing. */
  indexedBy(index: string): string;
  /** Locks the rows read until the transaction ends where other processes write too (PostgreSQL); else nothing. */
  forUpdate: string;
  /**
   * Keeps the rows read from being deleted until the transaction ends, without holding back updates of their other
   * columns (PostgreSQL's FOR KEY SHARE); else nothing.
   */
  forKeyShare: string;
  /** A text column's collation that orders by bytes, whatever the database's locale (SQLite's always does). */
  byteOrder: string;
  /**
   * The first second of the UTC month `seconds` (an integer expression, seconds since the epoch) is in, as an integer
   * of seconds since the epoch; whatever the session's time zone.
   */
  utcMonthStart(seconds: string): string;
}

/** A SELECT whose columns are chosen: what follows them. */
export interface Select<Row> {
  /** The statement, `rest` being what follows FROM (`?` for each parameter, as {@link SqlDialect.sql} takes). */
  from<Params extends unknown[] = unknown[]>(rest: string): Sql<Row, Params>;
}

/** The dialect's {@link SqlDialect.select}, made from its {@link SqlDialect.sql}. */
function selectIn<E extends Engine>(sql: SqlDialect['sql']): SqlDialect<E>['select'] {
  return (columns) => ({ from: (rest) => sql(`SELECT ${columns.text} FROM ${rest}`) });
}

const numberPlaceholders: SqlDialect['sql'] = (text) => {
  let n = 0;
  return { text: text.replace(/\?/g, () => `$${(n += 1)}`) };
};

/** PostgreSQL: `$1`, `$2` … placeholders, arrays and booleans bound as they are. */
export const postgresDialect: SqlDialect<'postgres'> = {
  sql: numberPlaceholders,
  select: selectIn(numberPlaceholders),
  inList: (column) => `${column} = ANY(?::bigint[])`,
  list: (values) => values,
  isTrue: (column) => column,
  bool: (value) => value,
  indexedBy: () => '',
  forUpdate: ' FOR UPDATE',
  forKeyShare: ' FOR KEY SHARE',
  byteOrder: ' COLLATE "C"',
  // date_trunc's third argument (PostgreSQL 12) truncates in that zone, not the session's.
  utcMonthStart: (seconds) =>
    `CAST(extract(epoch FROM date_trunc('month', to_timestamp(${seconds}), 'UTC')) AS BIGINT)`,
};

const keepPlaceholders: SqlDialect['sql'] = (text) => ({ text });

/**
 * SQLite (better-sqlite3): `?` placeholders as written; a list is bound as JSON (SQLite has no arrays), a boolean
 * as 0 or 1. One process writes (the file lock), so there is nothing to lock rows against.
 */
export const sqliteDialect: SqlDialect<'sqlite'> = {
  sql: keepPlaceholders,
  select: selectIn(keepPlaceholders),
  inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  list: (values) => JSON.stringify(values),
  isTrue: (column) => `${column} = 1`,
  bool: (value) => (value ? 1 : 0),
  indexedBy: (index) => ` INDEXED BY ${index}`,
  forUpdate: '',
  forKeyShare: '',
  byteOrder: '',
  // SQLite's date functions are UTC unless told 'localtime'.
  utcMonthStart: (seconds) => `CAST(strftime('%s', ${seconds}, 'unixepoch', 'start of month') AS INTEGER)`,
};
