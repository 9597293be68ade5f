import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

import { STORE_MODULES } from '../src/features/index.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite-store.js';
import type { BenchGroup } from './group.js';
import { Child } from './lib/children.js';
import type { ExportMeasure } from './lib/record-export-child.js';
import { log } from './lib/report.js';
import { startFlags } from './lib/start-flags.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * record.export_rss_mb: what exporting 100,000 cases (/export kind:cases period:all) adds to a process's RSS,
 * after GC: the store read a page at a time, the CSV written to files within Discord's 10 MiB, each message's
 * files read and put in the form discord.js sends (bench/lib/record-export-child.ts, a fresh process a round,
 * with the node flags of `npm start`, as in production).
 * Limit 30 MB. The most RSS grew while it ran is printed too.
 */
const CASES = 100_000;
const ROUNDS = roundCount(3);
const LIMIT_MB = 30;
const GUILD = '222222222222222222';

const REASONS = [
  'Fail roleplay: ramming other players at spawn',
  'Exploiting, "fly" hacks near the bank, reported by 3 players',
  'Harassment in chat\nafter two warnings',
  'RDM ×4 — spawn killing',
];

/** 100,000 cases of one guild over the last 90 days, inserted in one transaction straight into the file. */
async function seedCases(file: string): Promise<void> {
  // The bot's own store creates the schema (its migrations), then the rows go in directly.
  await openSqliteStore(file, Date.now, { modules: STORE_MODULES }).close();
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO record_case (guild_id, server, number, at, type, target_id, target_name, moderator_id,
                              moderator_name, reason, created_at, voided_at, voided_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < CASES; i += 1) {
      const at = now - Math.floor((i / CASES) * 90 * 24 * 3_600_000);
      const voided = i % 10 === 0;
      insert.run(
        GUILD,
        String(4_821_337 + (i % 3)),
        i + 1,
        at,
        ['warn', 'kick', 'ban'][i % 3],
        String(2_391_045_817 + (i % 5_000)),
        `Player_${i % 5_000}`,
        String(284_756_102_938_475_610n + BigInt(i % 40)),
        `Moderator ${i % 40}`,
        REASONS[i % REASONS.length],
        at,
        voided ? at + 60_000 : null,
        voided ? '193847561029384756' : null,
      );
    }
  })();
  db.close();
}

export const recordExportGroup: BenchGroup = {
  name: 'record-export',
  figures: ['record.export_rss_mb'],
  async run(figures) {
    const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-export-'));
    try {
      const file = join(dir, 'store.sqlite');
      const seeded = performance.now();
      await seedCases(file);
      log(`  seeded ${CASES} cases in ${formatNumber((performance.now() - seeded) / 1000)} s`);
      const growth: number[] = [];
      const peaks: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const child = new Child<never, ExportMeasure>(
          './record-export-child.ts',
          [file, GUILD],
          ['--expose-gc', ...startFlags()],
        );
        const measure = await child.next();
        await child.ended();
        growth.push(measure.rssAfterMb - measure.rssBeforeMb);
        peaks.push(measure.peakMb - measure.rssBeforeMb);
        log(
          `  round ${round + 1}: ${measure.rows} rows, ${formatNumber(measure.bytes / 1024 / 1024)} MiB in ` +
            `${measure.files} files and ${measure.messages} messages, ${formatNumber(measure.ms)} ms; RSS ` +
            `${formatNumber(measure.rssBeforeMb)} → ${formatNumber(measure.rssFilesMb)} (files written) → ` +
            `${formatNumber(measure.rssAfterMb)} MB (read as discord.js sends them) after GC, ` +
            `${formatNumber(measure.peakMb)} MB at most`,
        );
      }
      const figure = median(growth);
      log(
        `  RSS growth after GC per round: ${formatList(growth)} MB; at most while exporting: ${formatList(peaks)} MB`,
      );
      log(`  record.export_rss_mb ${formatNumber(figure)} MB against its limit of ${LIMIT_MB} MB`);
      figures.add('record.export_rss_mb', figure, 'MB');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
