import type { CsvCell } from './csv.js';
import type { ExportKind, ExportRows } from './store/record-export.js';

/** One column of an export: its name in the header row and its field of a row. */
export interface ExportColumn<Row> {
  name: string;
  cell: (row: Row) => CsvCell;
}

/** The columns of each kind /export writes, in order (store/migrations/0001-tables.ts holds what each means). */
export const EXPORT_COLUMNS: { [K in ExportKind]: ReadonlyArray<ExportColumn<ExportRows[K]>> } = {
  cases: [
    { name: 'server', cell: (row) => ({ text: row.server }) },
    { name: 'number', cell: (row) => ({ number: row.number }) },
    { name: 'type', cell: (row) => ({ text: row.type }) },
    { name: 'target_id', cell: (row) => ({ id: row.target_id }) },
    { name: 'target_name', cell: (row) => ({ text: row.target_name }) },
    { name: 'moderator_id', cell: (row) => ({ id: row.moderator_id }) },
    { name: 'moderator_name', cell: (row) => ({ text: row.moderator_name }) },
    { name: 'reason', cell: (row) => ({ text: row.reason }) },
    { name: 'created', cell: (row) => ({ time: row.created_at }) },
    { name: 'voided', cell: (row) => ({ time: row.voided_at }) },
    { name: 'voided_by', cell: (row) => ({ id: row.voided_by }) },
  ],
  shifts: [
    { name: 'server', cell: (row) => ({ text: row.server }) },
    { name: 'shift', cell: (row) => ({ number: row.shift_id }) },
    { name: 'member_id', cell: (row) => ({ id: row.member_id }) },
    { name: 'member_name', cell: (row) => ({ text: row.member_name }) },
    { name: 'roblox_id', cell: (row) => ({ id: row.roblox_id }) },
    { name: 'started', cell: (row) => ({ time: row.started_at }) },
    { name: 'ended', cell: (row) => ({ time: row.ended_at }) },
    { name: 'seconds', cell: (row) => ({ number: row.seconds }) },
  ],
  sessions: [
    { name: 'server', cell: (row) => ({ text: row.server }) },
    { name: 'session', cell: (row) => ({ number: row.session_id }) },
    { name: 'name', cell: (row) => ({ text: row.name }) },
    { name: 'started_by_id', cell: (row) => ({ id: row.started_by_id }) },
    { name: 'started_by_name', cell: (row) => ({ text: row.started_by_name }) },
    { name: 'started', cell: (row) => ({ time: row.started_at }) },
    { name: 'ended', cell: (row) => ({ time: row.ended_at }) },
    { name: 'peak_players', cell: (row) => ({ number: row.peak_players }) },
    { name: 'joins', cell: (row) => ({ number: row.joins }) },
    { name: 'cases', cell: (row) => ({ number: row.cases }) },
  ],
  modcalls: [
    { name: 'server', cell: (row) => ({ text: row.server }) },
    { name: 'caller_id', cell: (row) => ({ id: row.caller_id }) },
    { name: 'caller_name', cell: (row) => ({ text: row.caller_name }) },
    { name: 'called', cell: (row) => ({ time: row.at }) },
    // The card's first call: the calls of one card share it, and its claim and resolution are the card's, once.
    { name: 'card', cell: (row) => ({ time: row.card_at ?? row.at }) },
    { name: 'claimed_by', cell: (row) => ({ id: row.claimed_by }) },
    { name: 'claimed', cell: (row) => ({ time: row.claimed_at }) },
    { name: 'resolved_by', cell: (row) => ({ id: row.resolved_by }) },
    { name: 'resolved', cell: (row) => ({ time: row.resolved_at }) },
  ],
};
