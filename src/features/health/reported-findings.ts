import { relativeTime } from '../../discord/relative-time.js';
import { formatName } from '../../embeds/format.js';
import type { CoverageShortfall, RoleRefusal } from '../duty/index.js';
import type { Finding } from './open-incidents.js';

// What other features report to the health monitor, as the findings of their incidents.

/** Discord's refusal of a weekly digest's post. */
export interface DigestRefusal {
  channelId: string;
  /** Discord's answer, as the poster classified it (no secret in it). */
  reason: string;
  /** The digest's posts refused (or failed) in a row. */
  failures: number;
  /** When the digest is tried again (the guild backs off meanwhile). */
  retryAt: number;
}

/** What a digest alert shows: the channel (its label), the tries refused (its count), Discord's answer, the next try. */
export function describeRefusal(refused: DigestRefusal): Finding {
  return {
    label: `<#${refused.channelId}>`,
    count: refused.failures,
    escalated: false,
    detail: `${refused.reason}; ${refused.failures === 1 ? '1 try' : `${refused.failures} tries`} so far, the next ${relativeTime(refused.retryAt)}`,
  };
}

/** What an on-duty role alert shows: the role (its label) and why the bot may no longer give it. */
export function describeRoleRefusal(refusal: RoleRefusal): Finding {
  return { label: `<@&${refusal.roleId}>`, count: 0, escalated: false, detail: refusal.reason };
}

/**
 * What a coverage alert shows: the staff on shift (its count: fewer than the minimum), the minimum (its label),
 * since when, and the sessions running; escalated (red) while nobody at all is on shift.
 */
export function describeShortfall(shortfall: CoverageShortfall): Finding {
  const { minimum, onShift, since, sessions, onLeave = [] } = shortfall;
  // The names are the service's text: escaped, so none can format or ping.
  const names = sessions.map((session) =>
    session.name === null ? `session ${session.sessionId}` : formatName(session.name, 64),
  );
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
  return {
    label: `minimum ${minimum.staff}`,
    count: onShift,
    escalated: onShift === 0,
    detail:
      `**${onShift} of ${minimum.staff}** staff on shift while ${sessions.length === 1 ? 'a session runs' : `${sessions.length} sessions run`} ` +
      `(${shown}), short since ${relativeTime(since)}; /duty minimum allows ${minimum.afterMinutes} min.` +
      describeLeave(onLeave, minimum.staff - onShift),
  };
}

/** Whether leave explains the shortfall: the staff on approved leave of absence now (/leave), named. */
function describeLeave(onLeave: readonly string[], missing: number): string {
  if (onLeave.length === 0) return '';
  const named =
    onLeave
      .slice(0, 5)
      .map((id) => `<@${id}>`)
      .join(', ') + (onLeave.length > 5 ? ` and ${onLeave.length - 5} more` : '');
  const staff = `${onLeave.length} staff ${onLeave.length === 1 ? 'is' : 'are'} on approved leave (${named})`;
  return onLeave.length >= missing ? `\nExplained by leave: ${staff}.` : `\nPartly explained by leave: ${staff}.`;
}
