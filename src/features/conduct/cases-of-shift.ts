import type { StaffMoments } from '../record/index.js';
import { SHIFTS_IN_USE_MS } from './judge-case.js';
import type { ConductRules } from './rules.js';

/** Cases read at most for one shift's "server uses shifts" span (a server taking shifts up after a month off). */
const IN_USE_PAGE = 500;
/** How far after a Roblox id first clocked in its cases are judged again (the record's longest retention). */
const STAFF_TARGET_SPAN_MS = 3650 * 24 * 60 * 60 * 1000;

/** A case of the record by its key. */
export interface CaseKey {
  server: string;
  number: number;
}

/**
 * The cases a shift's merge may change the judgement of, each to be judged again as of its own moment: its
 * member's cases while it may have covered them (off shift, the only staff on shift), every ban then (the only
 * staff on shift), the cases against its Roblox id since it clocked in (a case against staff), and, when it is the
 * first shift of a month, the cases of the time it starts the server's use of shifts for. Each read goes by an
 * index over hours, a player's cases, or (rarely: a server taking shifts up after a month without) a month of cases,
 * of which the first {@link IN_USE_PAGE} are judged again.
 */
export async function casesOfShift(
  moments: StaffMoments,
  guildId: string,
  shift: { server: string; shiftId: number },
  rules: ConductRules,
  shiftCoversMs: number,
): Promise<CaseKey[]> {
  const found = await moments.shiftOf(guildId, shift.server, shift.shiftId);
  if (!found) return [];
  const covered = { from: found.at, to: found.at + shiftCoversMs + 1 };
  const keys = new Map<string, CaseKey>();
  const add = (cases: readonly CaseKey[]) => {
    for (const { server, number } of cases) keys.set(`${server}:${number}`, { server, number });
  };
  if (found.memberId !== null && (rules['off-shift'].on || rules['sole-staff'].on)) {
    add(await moments.casesBy(guildId, found.memberId, covered));
  }
  if (rules['sole-staff'].on) add(await moments.casesMadeIn(guildId, covered, IN_USE_PAGE, 'ban'));
  // Only the Roblox id's first clock-in changes since when it is staff: a later shift of it changes no case.
  if (found.robloxId !== null && rules['staff-target'].on) {
    const first = await moments.firstClockIn(guildId, found.robloxId);
    if (first === found.at) {
      add(await moments.casesAgainst(guildId, found.robloxId, { from: found.at, to: found.at + STAFF_TARGET_SPAN_MS }));
    }
  }
  if (rules['off-shift'].on) {
    // The cases this shift may make "in a server that uses shifts": up to a month after it, less those the start
    // strictly before it (if any, within the month) made so already. Not cut at the next start: that start may be
    // as new to those cases as this one, and the earliest new start of a case's month is the one that judges it.
    const before = await moments.shiftStartBefore(guildId, found.at, shift, SHIFTS_IN_USE_MS);
    const from = Math.max(found.at, before === null ? -Infinity : before + SHIFTS_IN_USE_MS + 1);
    const to = found.at + SHIFTS_IN_USE_MS + 1;
    if (from < to) add(await moments.casesMadeIn(guildId, { from, to }, IN_USE_PAGE));
  }
  return [...keys.values()];
}
