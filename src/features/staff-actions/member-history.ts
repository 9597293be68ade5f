import type { APIEmbed } from 'discord.js';

import { fitLines, truncateText } from '../../base/truncate-text.js';
import { formatHours, formatWait, type MemberMonth } from '../record/index.js';
import type { StaffActionContext } from './deps.js';
import { mentionManager } from './mention-manager.js';
import { infractionState, infractionWord } from './staff-cards.js';
import type { Infraction, Promotion } from './store/staff-actions-store.js';
import type { TimelineEntry } from './timeline.js';

/** An embed's description holds 4096 characters. */
const DESCRIPTION_MAX = 4_096;
/** A reason as a timeline line quotes it. */
const QUOTED_REASON = 120;

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** What /staff history found of a member: the timeline's entries, newest first, and the record's months. */
export interface MemberHistory {
  entries: TimelineEntry[];
  activeStrikes: number;
  months: MemberMonth[];
  /** The timeline sources that failed (their entries left out). */
  missing: string[];
}

/**
 * A member's history: infractions and promotions, what other features add (leave), and the community record's
 * figures per month, read at once. A source that fails is left out and named, the rest shown.
 */
export async function readMemberHistory(
  ctx: Pick<StaffActionContext, 'staffActions' | 'staffRecord' | 'timeline' | 'logger'>,
  guildId: string,
  memberId: string,
  now: number,
): Promise<MemberHistory> {
  const [infractions, promotions, months, sourced] = await Promise.all([
    ctx.staffActions.infractionsOf(guildId, memberId),
    ctx.staffActions.promotionsOf(guildId, memberId),
    ctx.staffRecord.memberMonths(guildId, memberId, { from: 0, to: now + 1 }),
    Promise.all(
      ctx.timeline.map(async (source) => {
        try {
          return { entries: await source.entriesOf(guildId, memberId) };
        } catch (error) {
          ctx.logger.warn({ err: error, source: source.name, guildId }, 'a timeline source failed');
          return { missing: source.name };
        }
      }),
    ),
  ]);
  const entries = [
    ...infractions.map((infraction) => infractionEntry(infraction, now)),
    ...promotions.map(promotionEntry),
    ...sourced.flatMap((found) => ('entries' in found ? found.entries : [])),
  ].sort((a, b) => b.at - a.at);
  return {
    entries,
    activeStrikes: infractions.filter((i) => i.type === 'strike' && infractionState(i, now) === 'active').length,
    months,
    missing: sourced.flatMap((found) => ('missing' in found ? [found.missing] : [])),
  };
}

/** The history as two embeds: the timeline, newest first, and the record's figures by month, newest first. */
export function renderMemberHistory(memberId: string, history: MemberHistory): APIEmbed[] {
  const timeline = history.entries.map((entry) => `<t:${Math.floor(entry.at / 1000)}:d> ${entry.line}`);
  const head = [`<@${memberId}> · active strikes: **${history.activeStrikes}**`];
  if (history.missing.length > 0) head.push(`(Not shown, could not be read: ${history.missing.join(', ')}.)`);
  const months = [...history.months].reverse().map(describeMonth);
  return [
    {
      title: 'Staff history',
      description: fitLines(
        [...head, '', ...(timeline.length === 0 ? ['No infractions or promotions.'] : timeline)],
        DESCRIPTION_MAX,
        (left) => `… and ${left} earlier`,
      ),
    },
    {
      title: 'By month (UTC)',
      description:
        months.length === 0
          ? 'Nothing in the record.'
          : fitLines(months, DESCRIPTION_MAX, (left) => `… and ${left} earlier months`),
    },
  ];
}

/** "**Nov 2026** · 12 shifts · 30.5 h · 40 cases · 9 claims · median 1 min 20 s to claim". */
export function describeMonth(month: MemberMonth): string {
  const date = new Date(month.month);
  const name = `${MONTH_NAMES[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
  const median = month.medianToClaimMs === null ? '' : ` · median ${formatWait(month.medianToClaimMs)} to claim`;
  return (
    `**${name}** · ${plural(month.shifts, 'shift')} · ${formatHours(month.seconds)} · ${plural(month.cases, 'case')} · ` +
    `${plural(month.claims, 'claim')}${median}`
  );
}

function infractionEntry(infraction: Infraction, now: number): TimelineEntry {
  const state = infractionState(infraction, now);
  const title = `${infractionWord(infraction.type)} #${infraction.number}`;
  const reason = truncateText(infraction.reason, QUOTED_REASON);
  const by = `by ${mentionManager(infraction.givenBy)}`;
  if (state === 'voided' && infraction.voided) {
    const why = truncateText(infraction.voided.reason, QUOTED_REASON);
    return {
      at: infraction.givenAt,
      line: `~~**${title}** ${by}: ${reason}~~ voided by ${mentionManager(infraction.voided.by)}: ${why}`,
    };
  }
  const until =
    infraction.expiresAt === null
      ? ''
      : state === 'expired'
        ? ' (expired)'
        : ` (until <t:${Math.floor(infraction.expiresAt / 1000)}:d>)`;
  return { at: infraction.givenAt, line: `**${title}** ${by}: ${reason}${until}` };
}

function promotionEntry(promotion: Promotion): TimelineEntry {
  const word = promotion.direction === 'promote' ? 'Promoted' : 'Demoted';
  const reason = promotion.reason === null ? '' : `: ${truncateText(promotion.reason, QUOTED_REASON)}`;
  return {
    at: promotion.doneAt ?? promotion.askedAt,
    line: `**${word}** to <@&${promotion.toRoleId}> by ${mentionManager(promotion.givenBy)}${reason}`,
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
