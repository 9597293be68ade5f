/**
 * A CSV writer, RFC 4180: CRLF after every row, a field quoted when it holds a comma, a quote, CR or LF, its
 * quotes doubled. Pure, one row at a time, so an export never holds more than the row it writes.
 */

/** One field of a row, with what it is: how it is written depends on that. */
export type CsvCell =
  /** Text from the service or a member (a name, a reason): written as it is, but never as a formula. */
  | { text: string | null | undefined }
  /** A Discord or Roblox id: always quoted, so it reads as text and never as a number that loses digits. */
  | { id: string | null | undefined }
  /** ms since the epoch: ISO 8601 in UTC (`2026-11-25T12:00:00.000Z`). */
  | { time: number | null | undefined }
  | { number: number | null | undefined };

/** The line end RFC 4180 asks for. */
export const CSV_LINE_END = '\r\n';

/**
 * What a spreadsheet would take for a formula (OWASP's CSV injection list): a text field starting with one of
 * these gets a `'` in front, which spreadsheets show as text and do not run. A reason `=HYPERLINK(…)` is then
 * `'=HYPERLINK(…)` in the file: the record keeps the text as the service sent it; only the export marks it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

function neutralized(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function quoted(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

/** One field as the file holds it; empty for what is unknown. */
export function csvField(cell: CsvCell): string {
  if ('text' in cell) {
    if (cell.text === null || cell.text === undefined) return '';
    const text = neutralized(cell.text);
    return NEEDS_QUOTES.test(text) ? quoted(text) : text;
  }
  // An id is digits; one that is not is still never a formula (quotes alone do not stop a spreadsheet).
  if ('id' in cell) return cell.id === null || cell.id === undefined ? '' : quoted(neutralized(cell.id));
  if ('time' in cell) return cell.time === null || cell.time === undefined ? '' : new Date(cell.time).toISOString();
  return cell.number === null || cell.number === undefined ? '' : String(cell.number);
}

/** One row, its line end included. */
export function csvRow(cells: readonly CsvCell[]): string {
  return cells.map(csvField).join(',') + CSV_LINE_END;
}

/** The header row: the columns' names, as text. */
export function csvHeader(names: readonly string[]): string {
  return csvRow(names.map((name) => ({ text: name })));
}
