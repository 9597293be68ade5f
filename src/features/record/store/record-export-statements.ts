import type { Sql, SqlDialect } from '../../../store/sql-dialect.js';
import { columns, type RowOf } from '../../../store/table-columns.js';

/** What /export writes of a case: every column but the guild's, `at` first (the key's time). */
const CASE = columns(
  'record_case',
  'at',
  'server',
  'number',
  'type',
  'target_id',
  'target_name',
  'moderator_id',
  'moderator_name',
  'reason',
  'created_at',
  'voided_at',
  'voided_by',
);
const SHIFT = columns(
  'record_shift',
  'at',
  'server',
  'shift_id',
  'member_id',
  'member_name',
  'roblox_id',
  'started_at',
  'ended_at',
  'seconds',
);
const SESSION = columns(
  'record_session',
  'at',
  'server',
  'session_id',
  'name',
  'started_by_id',
  'started_by_name',
  'started_at',
  'ended_at',
  'peak_players',
  'joins',
  'cases',
);
const MODCALL = columns(
  'record_modcall',
  'at',
  'server',
  'caller_id',
  'caller_name',
  'claimed_by',
  'claimed_at',
  'resolved_by',
  'resolved_at',
  'card_at',
);

/** A row of each kind /export answers, as its page reads it. */
export interface ExportRows {
  cases: RowOf<typeof CASE>;
  shifts: RowOf<typeof SHIFT>;
  sessions: RowOf<typeof SESSION>;
  modcalls: RowOf<typeof MODCALL>;
}
export type ExportKind = keyof ExportRows;

/** The kinds of rows /export writes, in the order its choices show them. */
export const EXPORT_KINDS = ['cases', 'shifts', 'sessions', 'modcalls'] as const satisfies readonly ExportKind[];

/**
 * Each kind's table, its columns and the key a page continues after: the time, then the rest of the table's key
 * (the guild's part is the guild asked about), so the `(guild_id, at)` index reads the pages in order.
 */
const KINDS = {
  cases: { columns: CASE, after: ['server', 'number'] },
  shifts: { columns: SHIFT, after: ['server', 'shift_id'] },
  sessions: { columns: SESSION, after: ['server', 'session_id'] },
  modcalls: { columns: MODCALL, after: ['server', 'caller_id'] },
} as const;

/** The key a page of `kind` continues after, read off the last row of the page before. */
export function exportKeyOf<K extends ExportKind>(kind: K, row: ExportRows[K]): [number, ...unknown[]] {
  const values = row as unknown as Record<string, unknown>;
  return [row.at, ...KINDS[kind].after.map((column) => values[column])];
}

/** A page's statements of one kind: the first page (guild, from, to, limit), and any later one. */
export interface ExportPageStatements<Row> {
  first: Sql<Row, [string, number, number, number]>;
  /** (guild, from, to, ...the last row's key, limit). */
  after: Sql<Row, unknown[]>;
}

/**
 * The statements /export reads the record with: one kind's rows of a guild whose `at` is in a range, a page at a
 * time in key order (keyset paging: a page costs the same wherever it is in the period).
 */
export function recordExportStatements(d: SqlDialect): { [K in ExportKind]: ExportPageStatements<ExportRows[K]> } {
  const pagesOf = <K extends ExportKind>(kind: K): ExportPageStatements<ExportRows[K]> => {
    const { columns: cols, after } = KINDS[kind];
    const order = ['at', ...after].join(', ');
    const where = `${cols.table} WHERE guild_id = ? AND at >= ? AND at < ?`;
    return {
      first: d.sql(`SELECT ${cols.text} FROM ${where} ORDER BY ${order} LIMIT ?`),
      after: d.sql(
        `SELECT ${cols.text} FROM ${where} AND (${order}) > (${['at', ...after].map(() => '?').join(', ')})
         ORDER BY ${order} LIMIT ?`,
      ),
    };
  };
  return {
    cases: pagesOf('cases'),
    shifts: pagesOf('shifts'),
    sessions: pagesOf('sessions'),
    modcalls: pagesOf('modcalls'),
  };
}
