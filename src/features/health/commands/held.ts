import { MessageFlags, type ButtonInteraction, type ChatInputCommandInteraction } from 'discord.js';

import type { ButtonHandler } from '../../../discord/command.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import {
  HELD_BUTTON,
  newRouteOf,
  readHeldButtonArgs,
  renderDiscardConfirmation,
  renderHeldPage,
  type HeldPage,
} from '../held-entries.js';
import type { HealthCommandDeps } from './command-deps.js';

/** What /feed held is given. */
export type FeedHeldDeps = Parameters<typeof renderHeldPage>[0];

/** /feed held [page]: the server's held deliveries, with Retry, Route and Discard. */
export async function showHeld(
  interaction: ChatInputCommandInteraction,
  ctx: FeedHeldDeps,
  guildId: string,
): Promise<void> {
  const page = await renderHeldPage(ctx, guildId, interaction.options.getInteger('page') ?? 1);
  await interaction.reply({ ...page, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
}

/**
 * A click on the held list of /feed held (`health:held:<action>:<seq>:<page>`). Anyone who sees the list could
 * click, so Manage Server is checked first; then the list is redrawn as it now is (another admin may have acted
 * meanwhile: the store answers for the entry).
 */
export const heldButton: ButtonHandler<HealthCommandDeps> = {
  id: HELD_BUTTON,
  command: 'feed',

  async run(interaction, ctx, args) {
    const guildId = requireAdmin(interaction);
    const { action, seq, page } = readHeldButtonArgs(args);
    const redraw = async (note?: string) => update(interaction, await renderHeldPage(ctx, guildId, page, note));
    if (action === 'page' || action === 'cancel') return redraw();

    const entry = await ctx.deliveries.heldOne(guildId, seq);
    if (!entry) return redraw('That delivery is no longer held (someone acted on it already).');
    const now = ctx.clock();
    switch (action) {
      case 'retry': {
        if (entry.channelId === null) return redraw(`No channel is set for ${entry.event}: set one with /feed set.`);
        await ctx.deliveries.requeueHeld(guildId, seq, entry.channelId, now);
        return redraw(`Sending ${entry.event} to <#${entry.channelId}> again.`);
      }
      case 'route': {
        const channelId = newRouteOf(entry, await ctx.guilds.get(guildId));
        if (!channelId) return redraw(`No other channel is set for ${entry.event} now.`);
        await ctx.deliveries.requeueHeld(guildId, seq, channelId, now);
        return redraw(`Sending ${entry.event} to <#${channelId}>.`);
      }
      case 'discard':
        return update(interaction, renderDiscardConfirmation(entry, page));
      case 'confirm': {
        if (!(await ctx.deliveries.discardHeld(guildId, seq, now))) {
          return redraw('That delivery is no longer held (someone acted on it already).');
        }
        ctx.logger.info(
          { guildId, userId: interaction.user.id, seq, event: entry.event, deliveryId: entry.deliveryId },
          'held delivery discarded',
        );
        return redraw(`Discarded ${entry.event} (delivery ${entry.deliveryId}).`);
      }
      default:
        throw new Error(`unknown /feed held button ${action}`);
    }
  },

  // Paging, Cancel and Discard (which only asks to confirm) change nothing; Retry, Route and Confirm do.
  readOnly: (args) => ['page', 'cancel', 'discard'].includes(readHeldButtonArgs(args).action),
};

async function update(interaction: ButtonInteraction, page: HeldPage): Promise<void> {
  await interaction.update({ ...page, allowedMentions: { parse: [] } });
}
