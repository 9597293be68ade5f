import type { APIEmbed } from 'discord.js';

import { truncateText } from '../../base/truncate-text.js';
import { formatCaseType } from '../../embeds/case-type.js';
import { COLOURS } from '../../embeds/colours.js';
import { formatName } from '../../embeds/format.js';
import { formatWait, type SessionFacts } from '../record/index.js';

/** Lines of the log per message: 25 lines of at most ~150 characters stay well within an embed's 4096. */
export const LOG_LINES_PER_MESSAGE = 25;
/** Messages of the log at most; past them the last one says how many more the record holds. */
export const LOG_MESSAGES_AT_MOST = 20;

/** One message the bot keeps in a session's thread: which part it is, and what it shows. */
export interface ThreadPart {
  /** `log:0`, `log:1`, … in order, then `report`. */
  part: string;
  embed: APIEmbed;
}

interface LogLine {
  at: number;
  /** Within one moment: shift ends, then cases, modcalls, shift starts (the order they tend to happen in). */
  order: number;
  text: string;
}

/**
 * The footer of every message of one session's thread: with the title, what a retry compares to find a part
 * already posted (find-post.ts), so it names the session.
 */
export function sessionFooter(facts: Pick<SessionFacts, 'session'>): string {
  return `Session ${facts.session.sessionId} · server ${facts.session.server}`;
}

/**
 * The session's log as the messages of its thread: every case, modcall and shift start or end on its server while
 * it ran, one line each, in time order, 25 to a message. Drawn again from the record at every change, so an event
 * told late lands in its place, and each event shows once however often the log is drawn.
 */
export function renderSessionLog(facts: SessionFacts): ThreadPart[] {
  const lines = logLines(facts);
  const parts: ThreadPart[] = [];
  const footer = { text: sessionFooter(facts) };
  const shown = Math.min(lines.length, LOG_LINES_PER_MESSAGE * LOG_MESSAGES_AT_MOST);
  for (let index = 0; index * LOG_LINES_PER_MESSAGE < Math.max(shown, 1); index += 1) {
    const page = lines.slice(index * LOG_LINES_PER_MESSAGE, Math.min(shown, (index + 1) * LOG_LINES_PER_MESSAGE));
    const last = (index + 1) * LOG_LINES_PER_MESSAGE >= shown;
    if (last && lines.length > shown) page.push(`… and ${lines.length - shown} more: see /record for them.`);
    parts.push({
      part: `log:${index}`,
      embed: {
        title: index === 0 ? 'Session log' : `Session log (${index + 1})`,
        description: page.length > 0 ? page.join('\n') : 'Nothing yet: cases, modcalls and shifts will show here.',
        color: COLOURS.sessionStarted,
        footer,
      },
    });
  }
  return parts;
}

function logLines(facts: SessionFacts): string[] {
  const { startedAt } = facts.session;
  const end = facts.session.endedAt ?? Infinity;
  const lines: LogLine[] = [];
  for (const found of facts.cases) {
    const what = `**${found.type === null ? 'Case' : formatCaseType(truncateText(found.type, 30))}** #${found.number}`;
    const who = found.targetName === null ? '' : ` · ${formatName(found.targetName, 40)}`;
    const by = found.moderatorName === null ? '' : ` by ${formatName(found.moderatorName, 40)}`;
    const text = `${what}${who}${by}`;
    lines.push({ at: found.at, order: 1, text: found.voided ? `~~${text}~~ (voided)` : text });
  }
  // A card a line, however many calls it gathered: its claim is one claim.
  for (const card of facts.modcalls) {
    const caller = formatName(card.callerName ?? 'a player', 40);
    const calls = card.calls > 1 ? ` (${card.calls} calls)` : '';
    const answer =
      card.claimedBy === null || card.claimedAt === null
        ? 'not claimed'
        : `claimed by <@${card.claimedBy}> after ${formatWait(card.claimedAt - card.calledAt)}`;
    lines.push({ at: card.at, order: 2, text: `📣 Modcall from ${caller}${calls} · ${answer}` });
  }
  for (const shift of facts.shifts) {
    const who = shift.memberId === null ? formatName(shift.memberName ?? 'someone', 40) : `<@${shift.memberId}>`;
    if (shift.startedAt >= startedAt && shift.startedAt <= end) {
      lines.push({ at: shift.startedAt, order: 3, text: `🟢 ${who} on shift` });
    }
    if (shift.endedAt !== null && shift.endedAt >= startedAt && shift.endedAt <= end) {
      lines.push({ at: shift.endedAt, order: 0, text: `⚪ ${who} off shift` });
    }
  }
  return lines
    .sort((a, b) => a.at - b.at || a.order - b.order)
    .map((line) => `<t:${Math.floor(line.at / 1000)}:T> ${line.text}`);
}
