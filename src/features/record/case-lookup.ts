import {
  ButtonStyle,
  ComponentType,
  time,
  TimestampStyles,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
} from 'discord.js';

import { customIdOf } from '../../discord/command.js';
import { formatName, formatUserText } from '../../embeds/format.js';
import type { CaseTypeCount, CommunityRecord, RecordedCase, RecordedPlayer } from './store/community-record.js';

/** Cases on one page of /case lookup. */
export const CASES_PER_PAGE = 10;
/** A reason is cut to this on a lookup's line, so ten lines fit an embed with room to spare. */
const REASON_SHOWN = 200;

const MAX_CUSTOM_ID = 100;

/** The handler of a lookup's page buttons (Newer, Older): their custom ids are `record:case-page:<player id>:<page>`. */
export const CASE_PAGE_BUTTON = 'record:case-page';

export function casePageButtonId(playerId: string, page: number): string {
  return customIdOf(CASE_PAGE_BUTTON, playerId, page);
}

/** What a page button's id carries after `record:case-page:`. */
export function readCasePageArgs(args: string): { playerId: string; page: number } {
  const [playerId = '', page = ''] = args.split(':');
  return { playerId, page: Math.max(1, Number(page) || 1) };
}

export interface CaseLookupPage {
  embeds: APIEmbed[];
  components: Array<APIActionRowComponent<APIButtonComponent>>;
}

/**
 * One page of a player's cases, newest first: number, type, when, moderator, reason, voided or not; above them
 * the player's totals by type. Every text from the service is escaped.
 */
export async function renderCaseLookup(
  community: Pick<CommunityRecord, 'casesOf' | 'caseTotals'>,
  guildId: string,
  player: RecordedPlayer,
  page: number,
): Promise<CaseLookupPage> {
  const totals = await community.caseTotals(guildId, player.playerId);
  const total = totals.reduce((sum, row) => sum + row.count, 0);
  const pages = Math.max(1, Math.ceil(total / CASES_PER_PAGE));
  const shown = Math.min(Math.max(1, page), pages);
  const cases = await community.casesOf(guildId, player.playerId, {
    limit: CASES_PER_PAGE,
    offset: (shown - 1) * CASES_PER_PAGE,
  });
  const title = `${formatName(player.name)} (${player.playerId}): ${total} ${total === 1 ? 'case' : 'cases'}`;
  const lines = [describeTotals(totals), '', ...cases.map(describeCase)];
  const embed: APIEmbed = { title, description: lines.join('\n') };
  if (pages > 1) embed.footer = { text: `Page ${shown} of ${pages}, newest first` };
  const components: CaseLookupPage['components'] = [];
  // A custom id holds 100 characters: an id the service never sends (Roblox ids are digits) gets no buttons.
  if (pages > 1 && casePageButtonId(player.playerId, pages + 1).length <= MAX_CUSTOM_ID) {
    components.push({
      type: ComponentType.ActionRow,
      components: [
        pageButton('Newer', casePageButtonId(player.playerId, shown - 1), shown === 1),
        pageButton('Older', casePageButtonId(player.playerId, shown + 1), shown === pages),
      ],
    });
  }
  return { embeds: [embed], components };
}

/** "3 warns · 1 kick (1 voided)": the player's cases per type, most first. */
export function describeTotals(totals: readonly CaseTypeCount[]): string {
  return totals
    .map((row) => `${countOf(row.count, row.type)}${row.voided > 0 ? ` (${row.voided} voided)` : ''}`)
    .join(' · ');
}

/** "2 warns, 1 kick": counts of case types, joined by `separator`. */
export function describeCaseCounts(counts: ReadonlyArray<{ type: string; count: number }>, separator: string): string {
  return counts.map((row) => countOf(row.count, row.type)).join(separator);
}

/** "1 kick", "2 kicks": a case type is a word the service sends (`warn`, `ban`), counted in plain English. */
function countOf(count: number, type: string): string {
  return `${count} ${formatName(type, 40)}${count === 1 ? '' : 's'}`;
}

function describeCase(found: RecordedCase): string {
  const when = time(Math.floor(found.at / 1000), TimestampStyles.ShortDate);
  const by = found.moderatorName !== undefined ? ` by ${formatName(found.moderatorName, 60)}` : '';
  const voided =
    found.voidedAt !== undefined
      ? ` · **voided** ${time(Math.floor(found.voidedAt / 1000), TimestampStyles.ShortDate)}`
      : '';
  const reason = found.reason !== undefined ? `: ${formatUserText(found.reason, REASON_SHOWN)}` : '';
  return `\`#${found.number}\` **${formatName(found.type ?? 'case', 40)}** ${when}${by}${voided}${reason}`;
}

function pageButton(label: string, customId: string, disabled: boolean): APIButtonComponent {
  const button: APIButtonComponent = {
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label,
    custom_id: customId,
  };
  if (disabled) button.disabled = true;
  return button;
}
