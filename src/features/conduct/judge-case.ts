import type { MomentCase, MomentReads, MomentSpans, StaffMoments } from '../record/index.js';
import { burstHits, type Hit } from './hits.js';
import type { Scope } from './plan-findings.js';
import type { ConductRules, RuleName } from './rules.js';

/** The case types a moderator's `bans` burst counts. */
export const BURST_TYPES = ['ban', 'kick'] as const;
/** A server uses shifts at a moment when one of its shifts began within this before it. */
export const SHIFTS_IN_USE_MS = 30 * 24 * 60 * 60 * 1000;

/** One rule's judgement of a case: what it looked at again, and what it found there, for one subject. */
export interface Judgement {
  rule: RuleName;
  subject: string;
  scope: Scope;
  found: Hit[];
  /** The time span the scope covers, for finding the stored findings near it. */
  from: number;
  to: number;
}

/**
 * Judges one case by every rule that is on, from the record as it stands now read as of the case's own moment
 * (its `at`, or its void's time for `voids`): a case delivered late is judged by who was on shift when it was
 * made, not when it arrived. `shiftCoversMs` is how long a shift with no end counts as running. Each rule gives
 * its subject's hits in its scope (a burst's: every case within its window either side, found again); a rule that
 * is off or whose subject the record does not know yet judges nothing.
 */
export async function judgeCase(
  moments: StaffMoments,
  guildId: string,
  key: { server: string; number: number },
  rules: ConductRules,
  shiftCoversMs: number,
): Promise<Judgement[]> {
  const windowOf = (rule: RuleName) => rules[rule].minutes * 60_000;
  const spans: MomentSpans = { shiftCoversMs, shiftsInUseMs: SHIFTS_IN_USE_MS };
  // Only what the rules that are on judge by: each part reads the guild's shifts around the case.
  const reads: MomentReads = {
    moderatorOnShift: rules['off-shift'].on || rules['sole-staff'].on,
    staffOnShiftForType: rules['sole-staff'].on ? 'ban' : null,
    shiftsInUse: rules['off-shift'].on,
    targetStaffSince: rules['staff-target'].on,
  };
  const moment = await moments.caseMoment(guildId, key.server, key.number, spans, reads);
  if (!moment) return [];
  const { case: found } = moment;
  const made = found.createdAt !== null;
  const judgements: Judgement[] = [];
  const one = (rule: RuleName, subject: string | null, hit: boolean) => {
    if (!rules[rule].on || subject === null || !made) return;
    const keys = new Set([`${found.server}:${found.number}`]);
    judgements.push({ rule, subject, scope: { keys }, found: hit ? [hitOf(found)] : [], from: found.at, to: found.at });
  };
  one('off-shift', found.moderatorId, moment.shiftsInUse === true && moment.moderatorOnShift === false);
  one('staff-target', found.targetId, moment.targetStaffSince !== null && moment.targetStaffSince <= found.at);
  one(
    'sole-staff',
    found.moderatorId,
    found.type === 'ban' && moment.moderatorOnShift === true && moment.staffOnShift === 1,
  );

  const bans = rules.bans;
  if (bans.on && made && found.moderatorId !== null && isBurstType(found.type)) {
    const window = windowOf('bans');
    const around = await moments.casesBy(
      guildId,
      found.moderatorId,
      { from: found.at - 2 * window, to: found.at + 2 * window + 1 },
      BURST_TYPES,
    );
    judgements.push(burstJudgement('bans', found.moderatorId, found.at, around.map(hitOf), bans.count, window));
  }
  const voids = rules.voids;
  if (voids.on && found.voidedAt !== null && found.voidedBy !== null) {
    const window = windowOf('voids');
    const at = found.voidedAt;
    const around = await moments.voidsBy(guildId, found.voidedBy, { from: at - 2 * window, to: at + 2 * window + 1 });
    const hits = around.flatMap((voided) =>
      voided.voidedAt === null ? [] : [{ ...hitOf(voided), at: voided.voidedAt }],
    );
    judgements.push(burstJudgement('voids', found.voidedBy, at, hits, voids.count, window));
  }
  return judgements;
}

/**
 * A burst's judgement around a moment: the hits within its window either side, found again from every case
 * within two windows (all a case within one window can share a burst with).
 */
function burstJudgement(
  rule: RuleName,
  subject: string,
  at: number,
  around: readonly Hit[],
  count: number,
  window: number,
): Judgement {
  const from = at - window;
  const to = at + window;
  const found = burstHits(around, count, window).filter((hit) => hit.at >= from && hit.at <= to);
  return { rule, subject, scope: { from, to }, found, from, to };
}

function isBurstType(type: string | null): boolean {
  return type !== null && (BURST_TYPES as readonly string[]).includes(type);
}

/** A case as a finding lists it. */
export function hitOf(found: MomentCase): Hit {
  return {
    server: found.server,
    number: found.number,
    at: found.at,
    ...(found.type === null ? {} : { type: found.type }),
    ...(found.targetName === null ? {} : { targetName: found.targetName }),
  };
}
