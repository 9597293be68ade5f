import type { ButtonInteraction } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { ButtonHandler, CommandBasics } from '../../../discord/command.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { isAdmin } from '../../../discord/require-admin.js';
import type { CardsDeps } from '../feature.js';
import type { ModcallCard } from '../modcall-card.js';
import { CLAIM_BUTTON_ID, eventOfCard, renderModcallMessage, RESOLVE_BUTTON_ID } from '../modcall-message.js';

/** What a modcall card's buttons are given. */
export type ModcallButtonDeps = Pick<CommandBasics, 'clock'> & CardsDeps;

/** Claim on a modcall card (the admins know it from /feed, where modcalls are routed and pinged). */
export const claimButton: ButtonHandler<ModcallButtonDeps> = {
  id: CLAIM_BUTTON_ID,
  command: 'feed',
  run: (interaction, ctx) => clickModcallButton(interaction, ctx, 'claim'),
};

/** Resolve on a modcall card. */
export const resolveButton: ButtonHandler<ModcallButtonDeps> = {
  id: RESOLVE_BUTTON_ID,
  command: 'feed',
  run: (interaction, ctx) => clickModcallButton(interaction, ctx, 'resolve'),
};

/**
 * Claim or Resolve on a modcall card. Members with the role the modcall pinged may click, and Manage Server;
 * the card's state is stored and changed atomically, so two moderators clicking Claim at once get one claim,
 * and the buttons keep working after a restart.
 */
async function clickModcallButton(
  interaction: ButtonInteraction,
  ctx: ModcallButtonDeps,
  action: 'claim' | 'resolve',
): Promise<void> {
  const guildId = interaction.guildId;
  if (!guildId) throw new UserFacingError('Modcall cards work in servers only.');
  const messageId = interaction.message.id;
  const card = await ctx.cards.modcall(guildId, messageId);
  if (!card) throw new UserFacingError('This modcall is no longer tracked: handle it in game.');
  if (!mayHandle(interaction, card)) {
    throw new UserFacingError(
      card.pingRoleId
        ? `Only members with <@&${card.pingRoleId}> or Manage Server can ${action} modcalls.`
        : `Only members with Manage Server can ${action} modcalls.`,
    );
  }

  const userId = interaction.user.id;
  const now = ctx.clock();
  let refusal: string | undefined;
  const updated = await ctx.cards.updateModcall(guildId, messageId, (current) => {
    refusal = current ? refusalOf(current, action, userId) : undefined;
    if (!current || refusal) return current;
    return action === 'claim'
      ? { ...current, claimedBy: userId, claimedAt: now }
      : { ...current, resolvedBy: userId, resolvedAt: now };
  });
  if (refusal) return replyEphemeral(interaction, refusal);
  if (!updated) throw new UserFacingError('This modcall is no longer tracked: handle it in game.');
  await ctx.recordModcallHandling(updated);

  const { embeds, components } = renderModcallMessage(eventOfCard(updated), updated, {});
  await interaction.update({ embeds, components });
}

/** Why this click changes nothing, or undefined when it may go ahead. */
function refusalOf(card: ModcallCard, action: 'claim' | 'resolve', userId: string): string | undefined {
  if (card.resolvedBy !== null) return `Already resolved by <@${card.resolvedBy}>.`;
  if (action === 'resolve' || card.claimedBy === null) return undefined;
  return card.claimedBy === userId
    ? 'You have already claimed this modcall.'
    : `Already claimed by <@${card.claimedBy}>.`;
}

function mayHandle(interaction: ButtonInteraction, card: ModcallCard): boolean {
  if (isAdmin(interaction)) return true;
  if (card.pingRoleId === null) return false;
  const roles = interaction.member?.roles;
  if (!roles) return false;
  // A member from the gateway's cache has a role manager; one from the interaction's payload, a list of ids.
  return Array.isArray(roles) ? roles.includes(card.pingRoleId) : roles.cache.has(card.pingRoleId);
}
