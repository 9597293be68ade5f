import type { BotParts, Feature } from '../feature.js';
import { staffMomentsOf, type MergedUpdate, type WritesWithMerges } from '../record/index.js';
import { ConductAlerts } from './conduct-alerts.js';
import { ConductGuard } from './conduct-guard.js';
import { conductModule } from './store/conduct-module.js';
import type { ConductStore, DueItem } from './store/conduct-store.js';

/** A finding is kept this long after its last case (its alert's buttons answer until then). */
export const FINDING_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;
/** Findings deleted per sweep at most: the hourly sweep never holds the store long. */
const SWEPT = 1_000;

/** What /conduct and the alerts' buttons are given. */
export interface ConductDeps {
  conduct: Pick<ConductStore, 'settingsOf' | 'setChannel' | 'setRole' | 'setRules' | 'finding' | 'act'>;
  /** A finding changed at a click: its alert is brought up to date at once. */
  alertsChanged(): void;
}

export interface ConductTimings {
  judgeEveryMs?: number;
  alertsEveryMs?: number;
}

/** The conduct feature, with what the record's writer writes in its merges (src/features/index.ts wires it). */
export interface ConductFeature extends Feature<ConductDeps> {
  /** The record's writer's hook: the cases and shifts it merges, noted due in its transaction. */
  withMerges: WritesWithMerges;
  guard: ConductGuard;
  alerts: ConductAlerts;
}

/**
 * The conduct guard (/conduct): alerts a chosen role, in a chosen channel, when what staff do looks wrong. The
 * record's writer notes what it merges in its own transaction (cheap: a row per case or shift); the guard judges
 * it apart, from the record as of each case's moment; the alerts follow the findings, one message per incident.
 */
export function createConductFeature(parts: BotParts, timings: ConductTimings = {}): ConductFeature {
  const conduct = parts.store.of(conductModule);
  const alerts = new ConductAlerts({
    conduct,
    documents: parts.store.documents,
    poster: parts.poster,
    findPosted: parts.findPosted,
    nonceWindowMs: parts.nonceWindowMs,
    clock: parts.clock,
    logger: parts.logger,
    timers: parts.timers,
    everyMs: timings.alertsEveryMs,
  });
  const guard = new ConductGuard({
    conduct,
    moments: staffMomentsOf(parts.store),
    clock: parts.clock,
    timers: parts.timers,
    logger: parts.logger,
    everyMs: timings.judgeEveryMs,
    onFindings: () => void alerts.syncDue(),
  });
  return {
    deps: { conduct, alertsChanged: () => void alerts.syncDue() },
    jobs: [guard, alerts],
    sweep: (now) => conduct.sweep(now - FINDING_RETENTION_MS, SWEPT),
    withMerges: (merged) => conduct.noteDueWrites(dueOf(merged), parts.clock()),
    guard,
    alerts,
  };
}

/** What a pass's merges make due: each case and shift they told of (a session or a modcall, nothing). */
export function dueOf(merged: readonly MergedUpdate[]): Array<Pick<DueItem, 'guildId' | 'kind' | 'server' | 'number'>> {
  const due: Array<Pick<DueItem, 'guildId' | 'kind' | 'server' | 'number'>> = [];
  for (const { guildId, server, update } of merged) {
    if (update.kind === 'case') due.push({ guildId, kind: 'case', server, number: update.number });
    else if (update.kind === 'shift') due.push({ guildId, kind: 'shift', server, number: update.id });
  }
  return due;
}
