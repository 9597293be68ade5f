import { ChannelType, InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';

import type { Command } from '../../../discord/command.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import { setAlerts, showAlerts, turnAlertsOff } from './alerts/settings.js';
import type { HealthCommandDeps } from './command-deps.js';

/** The longest silence check: a week. */
const MAX_SILENCE_HOURS = 168;

/** /alerts set|off|show: where the bot tells admins that the feed is breaking (its buttons: alert-buttons.ts). */
export const alertsCommand: Command<HealthCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('alerts')
    .setDescription('Where the bot warns that the feed is breaking')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('set')
        .setDescription('Post health alerts in a channel')
        .addChannelOption((option) =>
          option
            .setName('channel')
            .setDescription('Where alerts go')
            .setRequired(true)
            .addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement),
        )
        .addRoleOption((option) => option.setName('role').setDescription('The role an alert pings'))
        .addIntegerOption((option) =>
          option
            .setName('silence')
            .setDescription('Hours without deliveries before a webhook is checked (default 12)')
            .setMinValue(1)
            .setMaxValue(MAX_SILENCE_HOURS),
        ),
    )
    .addSubcommand((sub) => sub.setName('off').setDescription('Stop posting health alerts'))
    .addSubcommand((sub) => sub.setName('show').setDescription('Where alerts go, and the open incidents')),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'set':
        return setAlerts(interaction, ctx, guildId);
      case 'off':
        return turnAlertsOff(interaction, ctx, guildId);
      case 'show':
        return showAlerts(interaction, ctx, guildId);
      default:
        throw new Error(`unknown /alerts subcommand ${subcommand}`);
    }
  },

  readOnly: (subcommand) => subcommand === 'show',
};
