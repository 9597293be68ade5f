import {
  MessageFlags,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type JSONEncodable,
  type RepliableInteraction,
} from 'discord.js';

import { truncateText } from '../base/truncate-text.js';

/** Discord's limit on a message's content. */
const MAX_CONTENT = 2000;

/** Replies name channels and roles; none of them may ping anyone, even in an ephemeral reply. */
const NO_MENTIONS = { parse: [] };

/**
 * Answers an interaction ephemerally, whatever state it is in: edits the deferred reply, adds a follow-up
 * after a reply, or replies. Text over Discord's limit is cut visibly rather than refused with a 400.
 * `components`: buttons the answer offers (rows of them), if any.
 */
export async function replyEphemeral(
  interaction: RepliableInteraction,
  content: string,
  components: ReadonlyArray<JSONEncodable<APIActionRowComponent<APIComponentInMessageActionRow>>> = [],
): Promise<void> {
  const text = truncateText(content, MAX_CONTENT);
  const extra = components.length > 0 ? { components: [...components] } : {};
  if (interaction.deferred) {
    await interaction.editReply({ content: text, allowedMentions: NO_MENTIONS, ...extra });
  } else if (interaction.replied) {
    await interaction.followUp({
      content: text,
      flags: MessageFlags.Ephemeral,
      allowedMentions: NO_MENTIONS,
      ...extra,
    });
  } else {
    await interaction.reply({ content: text, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS, ...extra });
  }
}

/**
 * Acknowledges the interaction with an ephemeral "thinking…" before slow work (a call to the service), so
 * Discord's 3 s limit for the first answer is never missed; {@link replyEphemeral} then edits it.
 */
export async function deferEphemeral(interaction: RepliableInteraction): Promise<void> {
  if (interaction.deferred || interaction.replied) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
}
