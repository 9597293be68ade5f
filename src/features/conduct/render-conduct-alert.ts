import {
  ButtonStyle,
  ComponentType,
  time,
  TimestampStyles,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
} from 'discord.js';

import { truncateText } from '../../base/truncate-text.js';
import { customIdOf } from '../../discord/command.js';
import { hitKey, type Hit } from './hits.js';
import type { ConductRules } from './rules.js';
import type { Finding } from './store/conduct-store.js';

/** The alerts' buttons' handler: custom ids `conduct:alert:<ack|dismiss>:<finding id>`. */
export const CONDUCT_ALERT_BUTTON = 'conduct:alert';
/** Cases listed in an alert at most (the count says how many in all). */
const SHOWN_CASES = 20;
const COLOUR = { open: 0xed4245, answered: 0x99aab5, ended: 0x57f287 } as const;

/** A conduct alert as posted or edited. */
export interface ConductAlert {
  content: string;
  embeds: APIEmbed[];
  allowed_mentions: { parse: []; roles?: string[] };
  components: Array<APIActionRowComponent<APIButtonComponent>>;
}

/** The footer that names a finding: what finds its post again past the nonce window. */
export function alertFooter(finding: Pick<Finding, 'id'>): string {
  return `Conduct guard · ${finding.id}`;
}

/**
 * A finding's alert as it stands: what the rule saw, each case with a link to its card where the feed posted one
 * (`cardLinks` by `server:number`), and what the role answered. Open, it carries Acknowledge and Dismiss and pings
 * the role (a first post pings; an edit never does); withdrawn or merged, it says why and loses them.
 */
export function renderConductAlert(
  finding: Finding,
  rules: ConductRules,
  roleId: string | null,
  cardLinks: ReadonlyMap<string, string>,
): ConductAlert {
  const ended = finding.state === 'withdrawn' || finding.state === 'merged';
  const lines: string[] = [];
  if (finding.state === 'withdrawn') {
    lines.push('**Withdrawn**: the record, with the deliveries that came late, no longer bears this out.');
  }
  if (finding.state === 'merged' && finding.mergedInto !== null) {
    lines.push(`**Merged** into the alert \`${finding.mergedInto}\`: a case between them joined the two.`);
  }
  if (finding.actedBy !== null && finding.actedAt !== null && !ended) {
    lines.push(
      `**${finding.state === 'dismissed' ? 'Dismissed' : 'Acknowledged'}** by <@${finding.actedBy}> ` +
        `${time(Math.floor(finding.actedAt / 1000), TimestampStyles.RelativeTime)}.`,
    );
  }
  lines.push(subjectLine(finding), '');
  const hits = [...finding.hits].sort((a, b) => a.at - b.at);
  for (const hit of hits.slice(0, SHOWN_CASES)) lines.push(caseLine(hit, cardLinks.get(hitKey(hit))));
  if (hits.length > SHOWN_CASES) lines.push(`… and ${hits.length - SHOWN_CASES} more.`);
  const open = finding.state === 'open';
  const pinged = open && roleId !== null ? roleId : null;
  return {
    content: pinged ? `<@&${pinged}>` : '',
    embeds: [
      {
        title: truncateText(`${ended ? 'Ended: ' : ''}${titleOf(finding, rules)}`, 256),
        description: truncateText(lines.join('\n'), 4096),
        color: ended ? COLOUR.ended : open ? COLOUR.open : COLOUR.answered,
        footer: { text: alertFooter(finding) },
        timestamp: new Date(finding.openedAt).toISOString(),
      },
    ],
    allowed_mentions: pinged ? { parse: [], roles: [pinged] } : { parse: [] },
    components: ended ? [] : [buttons(finding)],
  };
}

function titleOf(finding: Finding, rules: ConductRules): string {
  const count = finding.hits.length;
  const cases = `${count} case${count === 1 ? '' : 's'}`;
  switch (finding.rule) {
    case 'off-shift':
      return `Conduct: ${cases} by a moderator not on shift`;
    case 'bans':
      return `Conduct: ${count} bans or kicks by one moderator (burst: ${rules.bans.count} within ${rules.bans.minutes} min)`;
    case 'voids':
      return `Conduct: ${count} voids by one member (burst: ${rules.voids.count} within ${rules.voids.minutes} min)`;
    case 'staff-target':
      return `Conduct: ${cases} against a member who clocked in as staff`;
    case 'sole-staff':
      return `Conduct: ${count === 1 ? 'a ban' : `${count} bans`} while its moderator was the only staff on shift`;
  }
}

/** Who the finding is about: a moderator (a Discord id), a voider, or a player (a Roblox id). */
function subjectLine(finding: Finding): string {
  switch (finding.rule) {
    case 'staff-target':
      return `Target (Roblox id): ${escapeMarkdown(finding.subject)}`;
    case 'voids':
      return `Voided by: ${memberText(finding.subject)}`;
    default:
      return `Moderator: ${memberText(finding.subject)}`;
  }
}

/** A Discord id as a mention (it pings nobody: the alert allows only its role), anything else as text. */
function memberText(id: string): string {
  return /^\d{17,20}$/.test(id) ? `<@${id}>` : escapeMarkdown(id);
}

function caseLine(hit: Hit, link: string | undefined): string {
  const when = time(Math.floor(hit.at / 1000), TimestampStyles.ShortDateTime);
  const what = `${hit.type ?? 'case'}${hit.targetName === undefined ? '' : ` of ${escapeMarkdown(hit.targetName)}`}`;
  const number = `#${hit.number}${hit.server === '' ? '' : ` (${escapeMarkdown(hit.server)})`}`;
  return `• ${when}: ${truncateText(what, 120)}, ${link ? `[${number}](${link})` : number}`;
}

/** A player's name or a server's id shown as written, whatever markdown it holds. */
function escapeMarkdown(text: string): string {
  return text.replace(/([\\*_`~|[\]()<>@#])/g, '\\$1');
}

function buttons(finding: Finding): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Primary,
        label: 'Acknowledge',
        custom_id: customIdOf(CONDUCT_ALERT_BUTTON, 'ack', finding.id),
        disabled: finding.state === 'acknowledged',
      },
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: 'Dismiss',
        custom_id: customIdOf(CONDUCT_ALERT_BUTTON, 'dismiss', finding.id),
        disabled: finding.state === 'dismissed',
      },
    ],
  };
}
