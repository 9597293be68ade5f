import { tellsOf, type Community } from '../../../properties/community-events.js';

/*
 * The conduct guard's incidents as a plain model computes them from what the bot was told: no store, no index, no
 * incremental judgement; every rule read straight from its definition over every case and shift told, then each
 * rule's and subject's hits grouped where two in a row are further apart than the rule's gap.
 */

const MINUTE = 60_000;
/** How long a shift with no end counts as running (SHIFT_NEVER_ENDED_AFTER_MS). */
const COVERS_MS = 16 * 60 * MINUTE;
const IN_USE_MS = 30 * 24 * 60 * MINUTE;
const GROUP_MS = 60 * MINUTE;

export interface ModelRules {
  bans: { count: number; minutes: number };
  voids: { count: number; minutes: number };
}

interface Hit {
  key: string;
  at: number;
}

/** Each incident as `rule|subject|case keys in time order`, sorted. */
export function modelIncidents(community: Community, seen: ReadonlySet<string>, rules: ModelRules): string[] {
  const shifts = community.shifts.flatMap((shift, index) => {
    const started = seen.has(tellsOf('shift.started', index));
    const ended = seen.has(tellsOf('shift.ended', index));
    if (!started && !ended) return [];
    return [
      {
        member: shift.member.id,
        robloxId: `7${shift.member.id.slice(-2)}`,
        start: shift.startedAt,
        end: ended ? shift.endedAt : null,
      },
    ];
  });
  const onShift = (member: string, at: number) =>
    shifts.some(
      (s) => s.member === member && s.start <= at && s.start >= at - COVERS_MS && (s.end === null || s.end >= at),
    );
  const staffOnShift = (at: number) =>
    new Set(
      shifts
        .filter((s) => s.start <= at && s.start >= at - COVERS_MS && (s.end === null || s.end >= at))
        .map((s) => s.member),
    ).size;
  const inUse = (at: number) => shifts.some((s) => s.start <= at && s.start >= at - IN_USE_MS);
  const staffSince = (robloxId: string) => {
    const starts = shifts.filter((s) => s.robloxId === robloxId).map((s) => s.start);
    return starts.length === 0 ? null : Math.min(...starts);
  };

  const hits = new Map<string, Hit[]>();
  const hit = (rule: string, subject: string, found: Hit) => {
    const key = `${rule}|${subject}`;
    hits.set(key, [...(hits.get(key) ?? []), found]);
  };
  const bursts = new Map<string, Hit[]>();
  const burstCandidate = (rule: string, subject: string, found: Hit) => {
    const key = `${rule}|${subject}`;
    bursts.set(key, [...(bursts.get(key) ?? []), found]);
  };
  for (const [index, found] of community.cases.entries()) {
    const key = `${found.server}:${found.number}`;
    if (seen.has(tellsOf('case.created', index))) {
      const at = found.createdAt;
      const moderator = found.moderator.id;
      if (inUse(at) && !onShift(moderator, at)) hit('off-shift', moderator, { key, at });
      const since = staffSince(found.target.robloxId);
      if (since !== null && since <= at) hit('staff-target', found.target.robloxId, { key, at });
      if (found.type === 'ban' && onShift(moderator, at) && staffOnShift(at) === 1) {
        hit('sole-staff', moderator, { key, at });
      }
      if (found.type === 'ban' || found.type === 'kick') burstCandidate('bans', moderator, { key, at });
    }
    if (found.voided && seen.has(tellsOf('case.voided', index))) {
      burstCandidate('voids', found.voided.by, { key, at: found.voided.at });
    }
  }
  for (const [key, candidates] of bursts) {
    const rule = key.startsWith('bans|') ? rules.bans : rules.voids;
    const window = rule.minutes * MINUTE;
    // A hit is in a burst when some window of `minutes` holding it holds `count` hits: such a window can start at a hit.
    const inBurst = candidates.filter((candidate) =>
      candidates.some(
        (start) =>
          start.at <= candidate.at &&
          candidate.at <= start.at + window &&
          candidates.filter((other) => other.at >= start.at && other.at <= start.at + window).length >= rule.count,
      ),
    );
    if (inBurst.length > 0) hits.set(key, inBurst);
  }
  const incidents: string[] = [];
  for (const [key, found] of hits) {
    const gap = key.startsWith('bans|')
      ? rules.bans.minutes * MINUTE
      : key.startsWith('voids|')
        ? rules.voids.minutes * MINUTE
        : GROUP_MS;
    const sorted = [...found].sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    let group: Hit[] = [];
    for (const next of sorted) {
      const last = group.at(-1);
      if (last && next.at - last.at > gap) {
        incidents.push(describeIncident(key, group));
        group = [];
      }
      group.push(next);
    }
    if (group.length > 0) incidents.push(describeIncident(key, group));
  }
  return incidents.sort();
}

/** An incident as the test compares it: its rule, its subject and its cases' keys (in key order: ties in time may go either way). */
export function describeIncident(ruleAndSubject: string, cases: ReadonlyArray<{ key: string }>): string {
  return `${ruleAndSubject}|${cases
    .map((found) => found.key)
    .sort()
    .join(',')}`;
}
