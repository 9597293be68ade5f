import {
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type SlashCommandStringOption,
} from 'discord.js';

import type { Command, CommandBasics } from '../../../discord/command.js';
import { deferEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import { ALL_EVENTS, eventChoices } from '../../../upstream/event-choices.js';
import type { WebhooksDeps } from '../feature.js';
import { suggestWebhooks } from './webhook/autocomplete.js';
import { enableWebhook } from './webhook/enable.js';
import { listWebhooks } from './webhook/list.js';
import { registerWebhook } from './webhook/register.js';
import { removeWebhook } from './webhook/remove.js';
import { testWebhook } from './webhook/test.js';

/** What /webhook is given: its feature's dependencies, no more. */
export type WebhookCommandDeps = CommandBasics & WebhooksDeps;

const webhookOption = (option: SlashCommandStringOption) =>
  option
    .setName('webhook')
    .setDescription('Which webhook (needed when this server has more than one)')
    .setAutocomplete(true);

/** /webhook register|test|enable|list|remove: the service's webhooks that feed this server. */
export const webhookCommand: Command<WebhookCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('webhook')
    .setDescription("Manage the service's webhooks for this server")
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('register')
        .setDescription('Register a webhook with the service (3 per key at most)')
        .addStringOption((option) =>
          option
            .setName('events')
            .setDescription('The events it delivers')
            .setRequired(true)
            .addChoices({ name: 'all events', value: ALL_EVENTS }, ...eventChoices()),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('test')
        .setDescription('Ask the service for a ping and check it arrives and verifies')
        .addStringOption(webhookOption),
    )
    .addSubcommand((sub) =>
      sub
        .setName('enable')
        .setDescription('Switch on a webhook the service switched off')
        .addStringOption(webhookOption),
    )
    .addSubcommand((sub) => sub.setName('list').setDescription("This server's webhooks and their recent deliveries"))
    .addSubcommand((sub) =>
      sub.setName('remove').setDescription('Forget a webhook here').addStringOption(webhookOption),
    ),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'register':
        await deferEphemeral(interaction);
        return registerWebhook(interaction, ctx, guildId);
      case 'test':
        await deferEphemeral(interaction);
        return testWebhook(interaction, ctx, guildId);
      case 'enable':
        await deferEphemeral(interaction);
        return enableWebhook(interaction, ctx, guildId);
      case 'list':
        return listWebhooks(interaction, ctx, guildId);
      case 'remove':
        return removeWebhook(interaction, ctx, guildId);
      default:
        throw new Error(`unknown /webhook subcommand ${subcommand}`);
    }
  },

  autocomplete: (interaction, ctx) => suggestWebhooks(interaction, ctx),

  readOnly: (subcommand) => subcommand === 'list',
};
