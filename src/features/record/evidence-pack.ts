import {
  ButtonStyle,
  ComponentType,
  time,
  TimestampStyles,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
} from 'discord.js';

import { fitLines } from '../../base/truncate-text.js';
import { customIdOf } from '../../discord/command.js';
import { formatEvidence } from '../../embeds/evidence.js';
import { formatInlineCode, formatName, formatUserText } from '../../embeds/format.js';
import { fitMessageToLimits } from '../../embeds/limits.js';
import { describeCaseCounts } from './case-lookup.js';
import { readEvidence } from './evidence-links.js';
import {
  EVIDENCE_MODCALL_SPAN_MS,
  type CaseEvidence,
  type EvidenceCase,
  type EvidenceModcall,
  type EvidenceShift,
} from './store/case-evidence.js';

/** The handler of a pack's "Share in this channel" button: `record:evidence-share:<server>:<number>`. */
export const EVIDENCE_SHARE_BUTTON = 'record:evidence-share';

/** The share button's custom id for a case. */
export function evidenceShareButtonId(server: string, number: number): string {
  return customIdOf(EVIDENCE_SHARE_BUTTON, server, number);
}

/** What a share button's id carries after `record:evidence-share:`. */
export function readEvidenceShareArgs(args: string): { server: string; number: number } | undefined {
  const cut = args.lastIndexOf(':');
  const server = args.slice(0, cut);
  const number = Number(args.slice(cut + 1));
  return cut < 0 || !Number.isSafeInteger(number) ? undefined : { server, number };
}

const MAX_CUSTOM_ID = 100;
/** Each part's share of the 6000 characters a message's embeds may hold, so none crowds the others out. */
const BUDGET = { reason: 1000, modcalls: 1000, shifts: 900, session: 500, earlier: 1000 } as const;

/** What a pack's reply carries: its embeds and, on the reader's own copy, the share button. */
export interface EvidenceMessage {
  embeds: APIEmbed[];
  components: Array<APIActionRowComponent<APIButtonComponent>>;
}

/**
 * A case's evidence pack as Discord shows it: the case and its void, its evidence (links shown whole, as the
 * embeds of the feed show them; the bot opens none), the player's modcalls before it (who claimed them, when), who was on shift, the session,
 * the player's earlier cases. Every text from the service is escaped; the whole fits one message.
 * @param shareable true on the reader's ephemeral copy: the button that posts it in the channel.
 */
export function renderEvidencePack(evidence: CaseEvidence, shareable: boolean): EvidenceMessage {
  const found = evidence.case;
  const embeds: APIEmbed[] = [
    caseEmbed(found),
    {
      title: `The player's modcalls on server ${formatName(found.server, 40)} in the ${EVIDENCE_MODCALL_SPAN_MS / 60_000} minutes before`,
      description: describeModcalls(evidence),
    },
    { title: `On shift at ${at(found.at, TimestampStyles.ShortDateTime)}`, description: describeShifts(evidence) },
    { title: 'Session', description: describeSession(evidence) },
    {
      title: `Earlier cases of ${playerOf(found)}`,
      description: describeEarlier(evidence),
      footer: { text: 'Evidence pack from the community record · links shown as given, never opened by the bot' },
    },
  ];
  const components: EvidenceMessage['components'] = [];
  const id = evidenceShareButtonId(found.server, found.number);
  if (shareable && id.length <= MAX_CUSTOM_ID) {
    components.push({
      type: ComponentType.ActionRow,
      components: [
        { type: ComponentType.Button, style: ButtonStyle.Secondary, label: 'Share in this channel', custom_id: id },
      ],
    });
  }
  return { embeds: fitMessageToLimits({ embeds, allowed_mentions: { parse: [] } }).embeds, components };
}

function caseEmbed(found: EvidenceCase): APIEmbed {
  const fields = [
    { name: 'Player', value: playerOf(found), inline: true },
    {
      name: 'Moderator',
      value:
        found.moderatorName !== undefined || found.moderatorId !== undefined
          ? [found.moderatorName && formatName(found.moderatorName, 80), found.moderatorId && `<@${found.moderatorId}>`]
              .filter(Boolean)
              .join(' ')
          : 'not told',
      inline: true,
    },
    {
      name: 'Made',
      value:
        found.createdAt !== undefined
          ? at(found.createdAt, TimestampStyles.LongDateTime)
          : 'not told yet (only its void reached the record)',
      inline: true,
    },
    { name: 'Status', value: describeVoid(found) },
    { name: 'Evidence', value: describeEvidence(found) },
  ];
  return {
    title: `Case #${found.number} · ${formatName(found.type ?? 'case', 40)} · server ${formatName(found.server, 40)}`,
    description: found.reason !== undefined ? formatUserText(found.reason, BUDGET.reason) : 'No reason told.',
    fields,
  };
}

function describeVoid(found: EvidenceCase): string {
  if (found.voidedAt === undefined) return 'Active: never voided.';
  const by = found.voidedBy !== undefined ? ` by ${formatInlineCode(found.voidedBy, 60)}` : '';
  return `**Voided** ${at(found.voidedAt, TimestampStyles.LongDateTime)}${by}.`;
}

function describeEvidence(found: EvidenceCase): string {
  if (found.evidence === undefined) return 'None given.';
  const read = readEvidence(found.evidence);
  // Evidence the record had to cut is text, not JSON: its links only (the attached file has all of it).
  if (read.value === undefined) {
    return fitLines(
      read.items.flatMap((item) => (item.href ? [item.href] : [])),
      1000,
      (left) => `and ${left} more (the attached file has them all)`,
    );
  }
  return formatEvidence(read.value);
}

function describeModcalls(evidence: CaseEvidence): string {
  if (evidence.case.targetId === undefined) return 'The player is not told: their calls cannot be found.';
  if (evidence.modcalls.length === 0) return 'None.';
  const lines = evidence.modcalls.map((call) => describeModcall(call, evidence.case));
  if (evidence.moreModcalls) lines.push('… and more');
  return fitLines(lines, BUDGET.modcalls);
}

function describeModcall(call: EvidenceModcall, found: EvidenceCase): string {
  const calls = call.calls > 1 ? ` (${call.calls} calls)` : '';
  const claim =
    call.claimedBy !== null
      ? `claimed by <@${call.claimedBy}>${call.claimedAt !== null ? ` ${at(call.claimedAt, TimestampStyles.LongTime)}` : ''}${call.claimedBy === found.moderatorId ? ' (the moderator)' : ''}`
      : 'not claimed';
  const resolved = call.resolvedAt !== null ? `, resolved ${at(call.resolvedAt, TimestampStyles.LongTime)}` : '';
  return `${at(call.at, TimestampStyles.LongTime)}${calls}: ${claim}${resolved}`;
}

function describeShifts(evidence: CaseEvidence): string {
  const found = evidence.case;
  const own = evidence.onShift.find((shift) => found.moderatorId !== undefined && shift.memberId === found.moderatorId);
  const last = evidence.moderatorLastShift;
  let moderator: string;
  if (found.moderatorId === undefined) moderator = 'The moderator: not told.';
  else if (own)
    moderator = `The moderator: **on shift** since ${at(own.startedAt, TimestampStyles.ShortTime)} (server ${formatName(own.server, 40)}).`;
  else if (last) {
    const ended = last.endedAt !== null ? `, ended ${at(last.endedAt, TimestampStyles.ShortDateTime)}` : '';
    moderator = `The moderator: **not on shift**; last shift began ${at(last.startedAt, TimestampStyles.ShortDateTime)}${ended}.`;
  } else moderator = 'The moderator: **not on shift**; no shift of theirs is in the record.';
  const others = evidence.onShift.filter((shift) => shift !== own).map((shift) => describeShift(shift, found.server));
  // The count is of those listed; "+" when the record had more than it read.
  const count = `${others.length}${evidence.moreOnShift ? '+' : ''}`;
  if (evidence.moreOnShift) others.push('… and more');
  const rest = others.length === 0 ? ['Nobody else was on shift.'] : [`Also on shift (${count}):`, ...others];
  return fitLines([moderator, ...rest], BUDGET.shifts);
}

function describeShift(shift: EvidenceShift, server: string): string {
  const who = shift.memberId !== null ? `<@${shift.memberId}>` : formatName(shift.memberName ?? 'someone', 60);
  const where = shift.server === server ? 'this server' : `server ${formatName(shift.server, 40)}`;
  return `${who} since ${at(shift.startedAt, TimestampStyles.ShortTime)} (${where})`;
}

function describeSession(evidence: CaseEvidence): string {
  const { session, onShift } = evidence;
  if (!session) return 'No session was running on this server.';
  const staffHere = onShift.filter((shift) => shift.server === evidence.case.server).length;
  const lines = [
    `**${formatName(session.name ?? `Session ${session.sessionId}`, 80)}**, begun ${at(session.startedAt, TimestampStyles.ShortDateTime)}` +
      (session.startedByName !== null ? ` by ${formatName(session.startedByName, 60)}` : ''),
    session.endedAt !== null
      ? `Ended ${at(session.endedAt, TimestampStyles.ShortDateTime)}.`
      : 'Still running, as far as the record was told.',
    `Staff on shift on this server at the case: ${staffHere}.${session.peakPlayers !== null ? ` Most players: ${session.peakPlayers}.` : ''}`,
  ];
  return fitLines(lines, BUDGET.session);
}

function describeEarlier(evidence: CaseEvidence): string {
  if (evidence.earlierCases.length === 0) return 'None: the first case of this player in the record.';
  const totals =
    evidence.earlierByType.length > 0
      ? `Not voided: ${describeCaseCounts(evidence.earlierByType, ' · ')}`
      : 'All voided.';
  const lines = evidence.earlierCases.map((earlier) => {
    const voided = earlier.voidedAt !== undefined ? ' · **voided**' : '';
    const reason = earlier.reason !== undefined ? `: ${formatUserText(earlier.reason, 120)}` : '';
    return `\`#${earlier.number}\` **${formatName(earlier.type ?? 'case', 40)}** ${at(earlier.at, TimestampStyles.ShortDate)}${voided}${reason}`;
  });
  return fitLines([totals, ...lines], BUDGET.earlier);
}

function playerOf(found: EvidenceCase): string {
  if (found.targetName === undefined && found.targetId === undefined) return 'not told';
  const name = formatName(found.targetName ?? found.targetId ?? '', 60);
  return found.targetId !== undefined && found.targetName !== undefined
    ? `${name} (${formatName(found.targetId, 30)})`
    : name;
}

function at(ms: number, style: (typeof TimestampStyles)[keyof typeof TimestampStyles]): string {
  return time(Math.floor(ms / 1000), style);
}
