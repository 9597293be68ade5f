import type { APIEmbed } from 'discord.js';

import { fitLines } from '../../base/truncate-text.js';
import { MAX_EMBED_DESCRIPTION_LENGTH } from '../../embeds/limits.js';
import { formatHours, formatWait } from '../record/index.js';
import { isFlagged, type MemberActivity } from './staff-activity.js';

const MARKS = { met: '✅', missed: '❌', excused: '🌴' } as const;

/** /staff activity's answer: a line a member (their figures, their quota, their flags), the flagged counted. */
export function describeActivity(members: readonly MemberActivity[], label: string, cut: boolean): APIEmbed {
  const flagged = members.filter(isFlagged).length;
  const head =
    members.length === 0
      ? 'Nobody had a shift, a case or a claim in this period.'
      : `${members.length} member${members.length === 1 ? '' : 's'}, ${flagged} with something to look at.` +
        (cut ? ' (Only the first 100 were looked up for the role.)' : '');
  return {
    title: `Staff activity: ${label}`,
    description: fitLines([head, ...members.map(lineOf)], MAX_EMBED_DESCRIPTION_LENGTH, (left) => `… and ${left} more`),
  };
}

/** A member's line. */
export function lineOf(member: MemberActivity): string {
  const figures =
    `<@${member.memberId}> ${formatHours(member.seconds)} · ${member.shifts} shift${member.shifts === 1 ? '' : 's'} · ` +
    `${member.cases} case${member.cases === 1 ? '' : 's'} · ${member.claims} claim${member.claims === 1 ? '' : 's'}`;
  const flags = flagsOf(member);
  return figures + quotaOf(member) + (flags.length > 0 ? `\n  ⚠️ ${flags.join(' · ')}` : '');
}

/** The flags of a member, in words (the digest's short version names them too). */
export function flagsOf(member: MemberActivity): string[] {
  const flags: string[] = [];
  if (member.idleStretches > 0) {
    flags.push(
      `${member.idleStretches} stretch${member.idleStretches === 1 ? '' : 'es'} on shift with no action ` +
        `(longest ${formatWait(member.longestIdleMs)})`,
    );
  }
  if (member.unclaimedOnShift > 0) {
    flags.push(`${member.unclaimedOnShift} modcall${member.unclaimedOnShift === 1 ? '' : 's'} left unclaimed on shift`);
  }
  if (member.neverEnded > 0) {
    flags.push(`${member.neverEnded} shift${member.neverEnded === 1 ? '' : 's'} never ended`);
  }
  return flags;
}

function quotaOf({ quota }: MemberActivity): string {
  if (quota === null) return '';
  if (quota.status === 'excused')
    return ` · ${MARKS.excused} excused (${quota.leave === 'leave' ? 'on leave' : 'reduced activity'})`;
  const reduced = quota.leave === 'reduced' ? ' reduced' : '';
  return ` · ${MARKS[quota.status]}${reduced} quota ${quota.targetHours ?? 0} h`;
}

/** The digest's short version: how many were active, and the members flagged, the first five named. */
export function describeActivityShort(members: readonly MemberActivity[]): string {
  const flagged = members.filter(isFlagged);
  const head = `${members.length} active, ${flagged.length} with something to look at (/staff activity).`;
  const named = flagged.slice(0, 5).map((member) => `⚠️ <@${member.memberId}>: ${flagsOf(member).join(' · ')}`);
  return [head, ...named, ...(flagged.length > 5 ? [`… and ${flagged.length - 5} more`] : [])].join('\n');
}
