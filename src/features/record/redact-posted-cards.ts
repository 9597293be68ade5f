import type { APIEmbed } from 'discord.js';

import type { Poster } from '../../discord/posting/poster.js';
import type { PostedCard } from '../../store/person-data.js';
import { FORMER_MEMBER, FORMER_PLAYER, type Person } from '../../store/person-rows.js';

/** Cards edited per slice, between two progress reports: a slice stays within a few seconds of Discord's rate. */
export const REDACT_SLICE = 5;

/** What a field says once the person it named is redacted. */
const REDACTED = '(redacted)';

/** How far redacting went: cards edited, cards Discord no longer has or refused, of how many. */
export interface RedactProgress {
  edited: number;
  failed: number;
  total: number;
}

/**
 * The card's embeds with the person taken out: a field naming them (by id, mention, name or profile link) says
 * "a former player" or "a former member"; for a player, the reason and evidence of an embed about them are
 * redacted too (they are about the player); a title or description naming them has their name replaced. Other
 * embeds of the same message (another player's case) stay as they are.
 */
export function redactEmbeds(embeds: readonly unknown[], person: Person): APIEmbed[] {
  const former = person.kind === 'player' ? FORMER_PLAYER : FORMER_MEMBER;
  const names = [person.id, ...(person.name ? [person.name, person.name.replace(/[_*~`|\\]/g, '\\$&')] : [])];
  const names_ = (text: string | undefined) => text !== undefined && names.some((name) => text.includes(name));
  const replace = (text: string) => names.reduce((result, name) => result.split(name).join(former), text);
  return embeds.map((raw) => {
    const embed = raw as APIEmbed;
    const about = names_(JSON.stringify(embed));
    if (!about) return embed;
    const fields = embed.fields?.map((field) => {
      if (names_(field.value)) return { ...field, value: former };
      if (person.kind === 'player' && /^(reason|evidence)$/i.test(field.name)) return { ...field, value: REDACTED };
      return field;
    });
    return {
      ...embed,
      ...(embed.title === undefined ? {} : { title: replace(embed.title) }),
      ...(embed.description === undefined ? {} : { description: replace(embed.description) }),
      ...(fields === undefined ? {} : { fields }),
    };
  });
}

/**
 * Edits the bot's posted cards naming the person to their redacted form, {@link REDACT_SLICE} at a time, telling
 * `progress` after each slice. A card Discord no longer has, or refuses to edit, is counted and the rest go on.
 */
export async function redactPostedCards(
  poster: Pick<Poster, 'edit'>,
  cards: readonly PostedCard[],
  person: Person,
  progress: (done: RedactProgress) => Promise<void>,
  onFailure: (card: PostedCard, error: unknown) => void,
): Promise<RedactProgress> {
  const done: RedactProgress = { edited: 0, failed: 0, total: cards.length };
  for (let start = 0; start < cards.length; start += REDACT_SLICE) {
    for (const card of cards.slice(start, start + REDACT_SLICE)) {
      try {
        const outcome = await poster.edit(card.channelId, card.messageId, {
          embeds: redactEmbeds(card.embeds, person),
          allowed_mentions: { parse: [] },
        });
        if (outcome === 'edited') done.edited += 1;
        else done.failed += 1;
      } catch (error) {
        done.failed += 1;
        onFailure(card, error);
      }
    }
    await progress({ ...done });
  }
  return done;
}
