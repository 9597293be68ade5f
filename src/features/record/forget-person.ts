import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
} from 'discord.js';

import { UserFacingError } from '../../base/errors.js';
import { truncateText } from '../../base/truncate-text.js';
import { customIdOf } from '../../discord/command.js';
import { formatName } from '../../embeds/format.js';
import type { ForgottenRows } from '../../store/person-data.js';
import type { Person, PersonKind } from '../../store/person-rows.js';
import type { RecordedPlayer } from './store/community-record.js';

/** The handler of a forgetting's Forget and Cancel buttons: `record:forget:<confirm|cancel>:<player|member>:<id>`. */
export const FORGET_BUTTON = 'record:forget';

/** What a Forget, Forget and redact or Cancel button carries after `record:forget:`. */
export interface ForgetButtonArgs {
  /** `confirm`: forget; `redact`: forget, then redact the bot's posted cards naming them; `cancel`. */
  choice: 'confirm' | 'redact' | 'cancel';
  kind: PersonKind;
  id: string;
}

export function readForgetArgs(args: string): ForgetButtonArgs {
  const [choice = '', kind = '', id = ''] = args.split(':');
  if ((kind !== 'player' && kind !== 'member') || !/^\d{1,20}$/.test(id)) {
    throw new UserFacingError('This button is no longer valid: run /record forget again.');
  }
  return { choice: choice === 'confirm' || choice === 'redact' ? choice : 'cancel', kind, id };
}

/**
 * The person `/record forget` names: a member by their Discord account, or a player by the record's name or id
 * (a Roblox id the record has no name for is forgotten by its id: its modcalls and deliveries may still name it).
 * @throws UserFacingError for neither or both, or a player the record does not know by that name
 */
export async function choosePerson(
  guildId: string,
  typedPlayer: string | null,
  memberId: string | null,
  findPlayer: (guildId: string, idOrName: string) => Promise<RecordedPlayer | undefined>,
): Promise<Person> {
  if ((typedPlayer === null) === (memberId === null)) {
    throw new UserFacingError('Name one person: `player:` (a Roblox name or id) or `member:` (a Discord member).');
  }
  if (memberId !== null) return { guildId, kind: 'member', id: memberId };
  const typed = (typedPlayer ?? '').trim();
  const player = await findPlayer(guildId, typed);
  if (player) return { guildId, kind: 'player', id: player.playerId, name: player.name };
  if (/^\d{1,20}$/.test(typed)) return { guildId, kind: 'player', id: typed };
  throw new UserFacingError(
    `No player named “${truncateText(typed, 100)}” is in this server's record: give their Roblox id to forget what else names them.`,
  );
}

/** How the confirmation and the result name the person (never in the audit log). */
export function describePerson(person: Person): string {
  return person.kind === 'member'
    ? `<@${person.id}>`
    : `${person.name === undefined ? 'the player' : formatName(person.name)} (Roblox id ${person.id})`;
}

/** One line per kind of row: how many, and whether forgetting deletes them or keeps them without the person. */
export function describeCounts(counts: readonly ForgottenRows[]): string {
  return counts
    .map(
      ({ what, count, forgetting }) =>
        `- ${what}: ${count.toLocaleString('en-US')} (${forgetting === 'deleted' ? 'deleted' : 'kept without them'})`,
    )
    .join('\n');
}

/** The total of rows counted. */
export function totalOf(counts: readonly ForgottenRows[]): number {
  return counts.reduce((sum, { count }) => sum + count, 0);
}

/** The confirmation `/record forget` shows: what will go, and the buttons. */
export function forgetConfirmation(
  person: Person,
  counts: readonly ForgottenRows[],
  postedCards: number,
): { embeds: APIEmbed[]; components: Array<APIActionRowComponent<APIButtonComponent>> } {
  const description = [
    `This deletes or anonymises, in one go, every row the bot keeps that names ${describePerson(person)} in this server:`,
    describeCounts(counts),
    '',
    "Others' figures stay as they are: a case or a claim stays counted, by a former member or about a former player. " +
      `The audit log records that a ${person.kind} was forgotten and by whom, never who.`,
    '',
    postedCards > 0
      ? `The bot's posted cards naming them in this server's channels: ${postedCards}. **Forget** leaves them as they ` +
        'are (they are the server’s messages); **Forget and redact cards** also edits them to name a former ' +
        `${person.kind} instead, a few at a time, with progress here.`
      : 'The bot keeps no posted card of this server naming them (older cards, and reports and digests, are the ' +
        'server’s messages: an admin edits or deletes them by hand).',
  ].join('\n');
  const button = (
    choice: ForgetButtonArgs['choice'],
    label: string,
    style: ButtonStyle.Danger | ButtonStyle.Secondary,
  ): APIButtonComponent => ({
    type: ComponentType.Button,
    custom_id: customIdOf(FORGET_BUTTON, choice, person.kind, person.id),
    label,
    style,
  });
  return {
    embeds: [{ title: `Forget ${person.kind === 'member' ? 'a member' : 'a player'}?`, description }],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          button('confirm', 'Forget', ButtonStyle.Danger),
          ...(postedCards > 0 ? [button('redact', 'Forget and redact cards', ButtonStyle.Danger)] : []),
          button('cancel', 'Cancel', ButtonStyle.Secondary),
        ],
      },
    ],
  };
}

/** The audit line's words for a forgetting: what kind of person and how many rows, never who. */
export function describeForgetting(kind: PersonKind, forgotten: readonly ForgottenRows[]): string {
  const kinds = forgotten.length;
  return `/record forget: a ${kind} (${totalOf(forgotten)} rows of ${kinds} ${kinds === 1 ? 'kind' : 'kinds'})`;
}
