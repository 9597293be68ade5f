import type { APIEmbed } from 'discord.js';

import { fitLines } from '../../base/truncate-text.js';
import type { MessageEdit } from '../../discord/posting/poster.js';
import { COLOURS } from '../../embeds/colours.js';
import { formatName } from '../../embeds/format.js';
import { MAX_EMBED_DESCRIPTION_LENGTH, MAX_FIELD_VALUE_LENGTH } from '../../embeds/limits.js';
import type { MemberLeave } from '../leave/index.js';
import type { OpenShift } from '../record/index.js';

/**
 * How long a shift may stay open before the board shows it apart, as "shift never ended", rather than among the
 * staff on duty: 16 hours, longer than any real shift (a double shift of 12 h fits), so a member whose
 * shift.ended never came (the game server crashed, the delivery was lost for good) is not shown on duty forever.
 * Such a member does not keep the duty role either.
 */
export const SHIFT_NEVER_ENDED_AFTER_MS = 16 * 60 * 60 * 1000;

/**
 * When the first of these on-duty shifts passes the "never ended" limit (and so must leave the board and its
 * member the role), if any does: the one moment a guild's duty changes without a shift event.
 */
export function nextNeverEndedAt(onDuty: readonly OpenShift[]): number | undefined {
  if (onDuty.length === 0) return undefined;
  return Math.min(...onDuty.map((shift) => shift.startedAt)) + SHIFT_NEVER_ENDED_AFTER_MS + 1;
}

/**
 * The open shifts still counted as on duty at `now`, and the ones open too long to be believed: one per member
 * (a member may be on shift in two game servers), the earliest. Split by age first: a member with a fresh shift is
 * on duty, since the earliest fresh one, whatever older shift of theirs never ended; a member is shown apart only
 * when every open shift of theirs is too old.
 */
export function splitOpenShifts(
  shifts: readonly OpenShift[],
  now: number,
): { onDuty: OpenShift[]; neverEnded: OpenShift[] } {
  const oldestFirst = [...shifts].sort((a, b) => a.startedAt - b.startedAt);
  const isNeverEnded = (shift: OpenShift) => now - shift.startedAt > SHIFT_NEVER_ENDED_AFTER_MS;
  const whoOf = (shift: OpenShift) => shift.memberId ?? `${shift.server}:${shift.shiftId}`;
  const onDuty = firstOfEachMember(
    oldestFirst.filter((shift) => !isNeverEnded(shift)),
    whoOf,
  );
  const onDutyMembers = new Set(onDuty.map(whoOf));
  const neverEnded = firstOfEachMember(
    oldestFirst.filter((shift) => isNeverEnded(shift) && !onDutyMembers.has(whoOf(shift))),
    whoOf,
  );
  return { onDuty, neverEnded };
}

/** The first shift of each member, in the order given. */
function firstOfEachMember(shifts: readonly OpenShift[], whoOf: (shift: OpenShift) => string): OpenShift[] {
  const seen = new Set<string>();
  return shifts.filter((shift) => {
    const who = whoOf(shift);
    if (seen.has(who)) return false;
    seen.add(who);
    return true;
  });
}

/** The board's footer: a board message is known by it (a post found again after a lost answer, board-updater.ts). */
export const BOARD_FOOTER = 'Updated as shifts start and end';

/**
 * The on-duty board: one embed listing the staff on shift now, longest on shift first, each with a mention, the
 * name the service gave and since when (a Discord timestamp, which every reader sees in their own time zone and
 * which counts itself up); then, apart, the shifts open longer than {@link SHIFT_NEVER_ENDED_AFTER_MS}. Within
 * Discord's embed limits whatever the number of staff: lines that do not fit become "… and N more".
 */
export function renderBoard(
  shifts: readonly OpenShift[],
  now: number,
  onLeave: readonly MemberLeave[] = [],
): MessageEdit {
  const { onDuty, neverEnded } = splitOpenShifts(shifts, now);
  const embed: APIEmbed = {
    title: `On duty now: ${onDuty.length}`,
    color: onDuty.length > 0 ? COLOURS.shiftStarted : COLOURS.shiftEnded,
    description:
      onDuty.length === 0
        ? 'Nobody is on shift.'
        : fitLines(onDuty.map(lineOf), MAX_EMBED_DESCRIPTION_LENGTH, (left) => `… and ${left} more`),
    footer: { text: BOARD_FOOTER },
    timestamp: new Date(now).toISOString(),
  };
  const fields: NonNullable<APIEmbed['fields']> = [];
  if (neverEnded.length > 0) {
    fields.push({
      name: `Shift never ended (open over ${SHIFT_NEVER_ENDED_AFTER_MS / 3_600_000} h): ${neverEnded.length}`,
      value: fitLines(neverEnded.map(lineOf), MAX_FIELD_VALUE_LENGTH, (left) => `… and ${left} more`),
    });
  }
  // Approved leave under way (/leave): who is away, and who is around less, until when.
  if (onLeave.length > 0) {
    fields.push({
      name: `On leave: ${onLeave.length}`,
      value: fitLines(onLeave.map(leaveLineOf), MAX_FIELD_VALUE_LENGTH, (left) => `… and ${left} more`),
    });
  }
  if (fields.length > 0) embed.fields = fields;
  // Mentions show who is meant; nobody is pinged by a board edited again and again.
  return { embeds: [embed], allowed_mentions: { parse: [] } };
}

function leaveLineOf(leave: MemberLeave): string {
  const last = Math.floor((leave.endsAt - 1) / 1000);
  return `<@${leave.memberId}> · ${leave.kind === 'leave' ? 'on leave' : 'reduced activity'} to <t:${last}:D>`;
}

function lineOf(shift: OpenShift): string {
  const seconds = Math.floor(shift.startedAt / 1000);
  const who = [
    shift.memberId === null ? undefined : `<@${shift.memberId}>`,
    shift.memberName === null ? undefined : formatName(shift.memberName, 64),
  ]
    .filter((part) => part !== undefined)
    .join(' ');
  return `${who || 'Someone'} · since <t:${seconds}:t> (<t:${seconds}:R>)`;
}
