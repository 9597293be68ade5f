/**
 * The record-export benchmark's process (forked with --expose-gc): opens the bot's SQLite store on the seeded
 * file and runs what /export runs (store pages → CSV lines → files within the attachment limit → each message's
 * files read and put in the form discord.js's REST sends), measuring its RSS after GC before and after, and the
 * most it reached meanwhile. Sends one {@link ExportMeasure} to its parent, then exits.
 */
import { MessagePayload } from 'discord.js';

import { STORE_MODULES } from '../../src/features/index.js';
import { exportLines, groupIntoMessages, writeExportFiles } from '../../src/features/record/export-record.js';
import { recordModule } from '../../src/features/record/store/record-module.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';

/** What one export measured. */
export interface ExportMeasure {
  rssBeforeMb: number;
  /** After GC once the files are written, before they are read for sending. */
  rssFilesMb: number;
  rssAfterMb: number;
  peakMb: number;
  rows: number;
  files: number;
  messages: number;
  bytes: number;
  ms: number;
}

const MIB = 1024 * 1024;
/** What the command uses where a server has no boost: Discord's 10 MiB, and 10 MiB a message. */
const PART_BYTES = 10 * MIB;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const collect = gc;

function settledRss(): number {
  collect();
  collect();
  return process.memoryUsage.rss() / MIB;
}

const [file = '', guildId = ''] = process.argv.slice(2);
const store = openSqliteStore(file, Date.now, { modules: STORE_MODULES });
// Warm up what any command would have loaded already: the statements, discord.js, a page's read.
await store.of(recordModule).exportPage('cases', guildId, { from: 0, to: 1 }, undefined, 1);
const before = settledRss();
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss() / MIB);
}, 5);

const started = performance.now();
const lines = exportLines(store.of(recordModule), 'cases', guildId, { from: 0, to: Number.MAX_SAFE_INTEGER });
const written = await writeExportFiles(lines, 'cases', { partBytes: PART_BYTES, maxParts: 10 });
if (written.outcome !== 'written') throw new Error(`the export was ${written.outcome}`);
const files = settledRss();
const messages = groupIntoMessages(written.parts, 10, PART_BYTES);
for (const message of messages) {
  // What discord.js does with a message's files: reads each whole (MessagePayload.resolveFile), and
  // @discordjs/rest puts each in a Blob of a FormData it sends.
  const form = new FormData();
  for (const [index, part] of message.entries()) {
    const raw = await MessagePayload.resolveFile({ attachment: part.path, name: part.name });
    form.append(`files[${index}]`, new Blob([raw.data as Uint8Array]), raw.name);
  }
  peak = Math.max(peak, process.memoryUsage.rss() / MIB);
}
const ms = performance.now() - started;
clearInterval(sampler);
const bytes = written.parts.reduce((sum, part) => sum + part.bytes, 0);
await written.dispose();
const after = settledRss();
await store.close();

const measure: ExportMeasure = {
  rssBeforeMb: before,
  rssFilesMb: files,
  rssAfterMb: after,
  peakMb: peak,
  rows: written.rows,
  files: written.parts.length,
  messages: messages.length,
  bytes,
  ms,
};
process.send?.(measure);
process.disconnect?.();
