import type { Poster } from '../../discord/posting/poster.js';
import type { PersonData } from '../../store/person-data.js';
import { auditOf, type AuditLog } from '../audit/index.js';
import type { BotParts, Feature, Job } from '../feature.js';
import { ChartRenderer, type ChartDrawer } from './chart-renderer.js';
import { removeLeftExports } from './export-leftovers.js';
import { RecordWriter } from './record-writer.js';
import type { EvidenceRecord } from './store/case-evidence.js';
import type { CommunityRecord } from './store/community-record.js';
import type { RecordExport } from './store/record-export.js';
import type { WritesWithMerges } from './store/record-merge.js';
import { recordModule } from './store/record-module.js';
import type { RecordQueries } from './store/record-queries.js';

/** What /record, /case (its lookups and evidence packs), /staff, /leaderboard and /export are given. */
export interface RecordDeps {
  community: RecordQueries &
    RecordExport &
    EvidenceRecord &
    Pick<CommunityRecord, 'settingsOf' | 'setRetentionDays' | 'setStaffRole'>;
  /** Draws /staff stats' and /leaderboard's chart images, in a process of its own. */
  charts: ChartDrawer;
  /** Where a lookup about one person writes its line (who looked whom up), before its answer. */
  audit: Pick<AuditLog, 'append'>;
  /** What the store keeps about one person: `/record mine` and `/record forget`. */
  people: PersonData;
  /** Edits the bot's posted cards naming a forgotten person (`/record forget`'s Forget and redact cards). */
  poster: Pick<Poster, 'edit'>;
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
  // What a process killed while it sent an export left in the temporary folder goes at start, then hourly.
  const leftovers: Job = {
    start: () => {
      removeLeftExports(parts.clock()).catch((error: unknown) =>
        parts.logger.warn({ err: error }, 'removing the export folders left behind failed'),
      );
    },
    stop: () => Promise.resolve(),
  };
  return {
    deps: { community, charts, audit: auditOf(parts.store), people: parts.store.people, poster: parts.poster },
    jobs: [writer, charts, leftovers],
    sweep: async (now) => {
      const [swept] = await Promise.all([community.sweep(now), removeLeftExports(now)]);
      return swept;
    },
  };
}
