import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { csvHeader, csvRow } from './csv.js';
import { EXPORT_COLUMNS, type ExportColumn } from './export-columns.js';
import { EXPORT_FOLDER_PREFIX } from './export-leftovers.js';
import type { ExportKind, ExportRows, RecordExport } from './store/record-export.js';
import type { TimeRange } from './store/record-queries.js';

/** Rows read from the store at a time: a page is all an export holds of the record. */
export const EXPORT_PAGE_ROWS = 1000;

/**
 * The CSV of a kind's rows in a period, a line at a time: the header row, then each row, read a page at a time in
 * key order. Nothing is kept once it is yielded.
 */
export async function* exportLines<K extends ExportKind>(
  community: Pick<RecordExport, 'exportPage'>,
  kind: K,
  guildId: string,
  range: TimeRange,
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<string, void, undefined> {
  const columns: ReadonlyArray<ExportColumn<ExportRows[K]>> = EXPORT_COLUMNS[kind];
  yield csvHeader(columns.map((column) => column.name));
  let after: ExportRows[K] | undefined;
  for (;;) {
    const page = await community.exportPage(kind, guildId, range, after, pageRows);
    for (const row of page) yield csvRow(columns.map((column) => column.cell(row)));
    if (page.length < pageRows) return;
    after = page[page.length - 1];
  }
}

/** One file of an export, written in a temporary folder. */
export interface ExportPart {
  /** `cases-1.csv`, `cases-2.csv`…; `cases.csv` when it is the only one. */
  name: string;
  path: string;
  bytes: number;
  /** Rows of the record in it (its header row not counted). */
  rows: number;
}

/** An export's files, or why there are none. */
export type ExportFiles =
  | { outcome: 'empty' }
  | { outcome: 'written'; parts: ExportPart[]; rows: number; dispose: () => Promise<void> }
  /** It would take more than `maxParts` files: nothing is kept, and nothing is sent. */
  | { outcome: 'too-big'; rowsWritten: number };

/** How an export is cut into files. */
export interface ExportLimits {
  /** The most bytes one file may hold (Discord's attachment limit, at most). */
  partBytes: number;
  /** The most files one export may take. */
  maxParts: number;
}

/**
 * Writes the lines (header first) to files in a temporary folder, a new file (with the header again) whenever
 * the next row would take one over `partBytes`; each file's size is known before it is sent. Writes wait for
 * the disk (backpressure), so memory holds a page of rows at most. Stops, and removes what it wrote, as soon as
 * the export would take more than `maxParts` files: a file is never cut short and sent as if it were whole.
 */
export async function writeExportFiles(
  lines: AsyncIterable<string>,
  kind: ExportKind,
  limits: ExportLimits,
): Promise<ExportFiles> {
  const dir = await mkdtemp(join(tmpdir(), `${EXPORT_FOLDER_PREFIX}${kind}-`));
  const dispose = () => rm(dir, { recursive: true, force: true });
  const parts: ExportPart[] = [];
  let header: string | undefined;
  let headerBytes = 0;
  let file: ReturnType<typeof createWriteStream> | undefined;
  let part: ExportPart | undefined;
  let rows = 0;
  const close = async () => {
    if (!file) return;
    file.end();
    await once(file, 'close');
    file = undefined;
  };
  const write = async (text: string, bytes: number) => {
    if (!file || !part) throw new Error('no export file open');
    part.bytes += bytes;
    if (!file.write(text)) await once(file, 'drain');
  };
  try {
    for await (const line of lines) {
      const bytes = Buffer.byteLength(line);
      if (header === undefined) {
        header = line;
        headerBytes = bytes;
        continue;
      }
      if (!part || part.bytes + bytes > limits.partBytes) {
        if (headerBytes + bytes > limits.partBytes) throw new Error(`an export row of ${bytes} bytes fits no file`);
        await close();
        if (parts.length === limits.maxParts) {
          await dispose();
          return { outcome: 'too-big', rowsWritten: rows };
        }
        part = {
          name: `${kind}-${parts.length + 1}.csv`,
          path: join(dir, `${parts.length + 1}.csv`),
          bytes: 0,
          rows: 0,
        };
        parts.push(part);
        file = createWriteStream(part.path);
        await write(header, headerBytes);
      }
      await write(line, bytes);
      part.rows += 1;
      rows += 1;
    }
    await close();
  } catch (error) {
    file?.destroy();
    await dispose();
    throw error;
  }
  if (rows === 0) {
    await dispose();
    return { outcome: 'empty' };
  }
  const [only] = parts;
  if (parts.length === 1 && only) only.name = `${kind}.csv`;
  return { outcome: 'written', parts, rows, dispose };
}

/**
 * The parts in messages of at most `maxFiles` files and `maxBytes` bytes together (one file bigger than that
 * goes alone): discord.js reads every file of a message into memory before it sends it, so this bounds what
 * sending an export holds at once.
 */
export function groupIntoMessages(parts: readonly ExportPart[], maxFiles: number, maxBytes: number): ExportPart[][] {
  const messages: ExportPart[][] = [];
  let current: ExportPart[] = [];
  let bytes = 0;
  for (const part of parts) {
    if (current.length > 0 && (current.length === maxFiles || bytes + part.bytes > maxBytes)) {
      messages.push(current);
      current = [];
      bytes = 0;
    }
    current.push(part);
    bytes += part.bytes;
  }
  if (current.length > 0) messages.push(current);
  return messages;
}
