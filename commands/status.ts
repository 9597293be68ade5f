import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';

import { describeStatus } from '../src/admin/describe-status.js';
import { requireAdmin } from '../src/admin/require-admin.js';
import { replyEphemeral } from '../src/discord/reply.js';
import type { BotCommand } from './context.js';

/** /status: what an admin needs to see whether the feed flows, and if not, why. */
export const status: BotCommand = {
  data: new SlashCommandBuilder()
    .setName('status')
    .setDescription("This server's feed: webhooks, last delivery, waiting events, broken routes")
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const hooks = await ctx.hooks.listForGuild(guildId);
    await replyEphemeral(interaction, (await describeStatus(guildId, hooks, ctx)).join('\n'));
  },
};
