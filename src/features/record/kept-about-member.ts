import type { KeptRows } from '../../store/person-data.js';
import { csvHeader, csvRow } from './csv.js';

/** The most of a member's CSV: well within a file Discord takes from a bot in any server (10 MiB). */
export const MINE_MAX_BYTES = 8 * 1024 * 1024;

/** `/record mine`'s answer: a line per kind of row with its count, and the rows as one CSV file. */
export interface MineAnswer {
  summary: string;
  csv: string | null;
}

/**
 * What the store keeps about a member's own Discord account in this guild, as `/record mine` answers it: each kind
 * of row counted, and a CSV of them (`what`, `at` in UTC, then the row's other columns as `column=value`). Nothing
 * about anyone else: each kind's columns were chosen by its store module (store-module.ts, `personRows`).
 */
export function describeKeptAbout(kept: readonly KeptRows[]): MineAnswer {
  if (kept.length === 0) {
    return { summary: 'The bot keeps nothing about your Discord account in this server.', csv: null };
  }
  const lines = kept.map(({ what, rows }) => `- ${what}: ${rows.length.toLocaleString('en-US')}`);
  const summary = `What the bot keeps about your Discord account in this server (only you see this):\n${lines.join('\n')}`;
  let csv = csvHeader(['what', 'at', 'details']);
  let cut = 0;
  for (const { what, rows } of kept) {
    for (const row of rows) {
      const line = csvRow([{ text: what }, { time: timeOf(row.at) }, { text: detailsOf(row) }]);
      if (csv.length + line.length > MINE_MAX_BYTES) cut += 1;
      else csv += line;
    }
  }
  return {
    summary: cut > 0 ? `${summary}\n(${cut.toLocaleString('en-US')} rows did not fit the file.)` : summary,
    csv,
  };
}

/** A row's time: PostgreSQL's BIGINT reads as text. */
function timeOf(at: unknown): number | null {
  const ms = Number(at);
  return at === null || at === undefined || !Number.isFinite(ms) ? null : ms;
}

function detailsOf(row: Record<string, unknown>): string {
  return Object.entries(row)
    .filter(([column, value]) => column !== 'at' && value !== null && value !== undefined)
    .map(([column, value]) => `${column}=${String(value)}`)
    .join('; ');
}
