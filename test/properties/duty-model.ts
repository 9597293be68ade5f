import { compareText, openShifts, type Known } from './record-model.js';

/** A shift open longer than this is not believed (the docs' "shift never ended"). */
const BELIEVED_FOR_MS = 16 * 60 * 60 * 1000;

/** One line of the on-duty board: who, and since when (ms). */
export interface BoardLine {
  memberId: string;
  since: number;
}

/**
 * The on-duty board at `now`: each member with an open shift begun at most 16 h ago is on duty, since the earliest
 * such shift (one line per member, however many game servers they are on shift in); a member whose open shifts are
 * all older is listed apart, as never ended, since the earliest. Longest on shift first.
 */
export function dutyBoard(known: Known, now: number): { onDuty: BoardLine[]; neverEnded: BoardLine[] } {
  const open = openShifts(known);
  const members = [...new Set(open.map((shift) => shift.memberId ?? ''))];
  const onDuty: BoardLine[] = [];
  const neverEnded: BoardLine[] = [];
  for (const memberId of members) {
    const theirs = open.filter((shift) => shift.memberId === memberId).map((shift) => shift.startedAt);
    const believed = theirs.filter((startedAt) => now - startedAt <= BELIEVED_FOR_MS);
    if (believed.length > 0) onDuty.push({ memberId, since: Math.min(...believed) });
    else neverEnded.push({ memberId, since: Math.min(...theirs) });
  }
  const longestFirst = (a: BoardLine, b: BoardLine) => a.since - b.since || compareText(a.memberId, b.memberId);
  return { onDuty: onDuty.sort(longestFirst), neverEnded: neverEnded.sort(longestFirst) };
}
