import type { BotParts, Feature } from '../feature.js';
import { ChartRenderer, type ChartDrawer } from './chart-renderer.js';
import { RecordWriter } from './record-writer.js';
import type { CommunityRecord } from './store/community-record.js';
import type { RecordExport } from './store/record-export.js';
import type { WritesWithMerges } from './store/record-merge.js';
import { recordModule } from './store/record-module.js';
import type { RecordQueries } from './store/record-queries.js';

/** What /record, /case, /staff, /leaderboard and /export are given. */
export interface RecordDeps {
  community: RecordQueries & RecordExport & Pick<CommunityRecord, 'settingsOf' | 'setRetentionDays' | 'setStaffRole'>;
  /** Draws /staff stats' and /leaderboard's chart images, in a process of its own. */
  charts: ChartDrawer;
}

export interface RecordTimings {
  writeEveryMs?: number;
  /** How long the chart process stays without a chart to draw before it exits. */
  chartIdleMs?: number;
}

/** What the record feature tells other features (wired in src/features/index.ts). */
export interface RecordListeners {
  /** The guilds for which the writer just merged a shift change. */
  onShiftsChanged?: (guildIds: readonly string[]) => void;
  /** The guilds for which the writer just merged a session change. */
  onSessionsChanged?: (guildIds: readonly string[]) => void;
  /** The guilds for which the writer just merged anything. */
  onRecordChanged?: (guildIds: readonly string[]) => void;
  /** What other features write in each slice's merges' transaction (the conduct guard's due cases and shifts). */
  withMerges?: WritesWithMerges;
}

/**
 * The community record: every case, shift, session and modcall the feed received, merged per guild by its
 * writer, kept for the guild's retention (400 days unless its admins set another), and answered by /case.
 */
export function createRecordFeature(
  parts: BotParts,
  timings: RecordTimings = {},
  listeners: RecordListeners = {},
): Feature<RecordDeps> {
  const community = parts.store.of(recordModule);
  const writer = new RecordWriter({
    community,
    timers: parts.timers,
    logger: parts.logger,
    writeEveryMs: timings.writeEveryMs,
    onShiftsChanged: listeners.onShiftsChanged,
    onSessionsChanged: listeners.onSessionsChanged,
    onRecordChanged: listeners.onRecordChanged,
    withMerges: listeners.withMerges,
  });
  const charts = new ChartRenderer({ timers: parts.timers, logger: parts.logger, idleMs: timings.chartIdleMs });
  return {
    deps: { community, charts },
    jobs: [writer, charts],
    sweep: (now) => community.sweep(now),
  };
}
