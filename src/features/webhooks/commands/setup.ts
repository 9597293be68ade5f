import {
  InteractionContextType,
  LabelBuilder,
  ModalBuilder,
  PermissionFlagsBits,
  SlashCommandBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';

import type { Command, CommandBasics, DialogHandler } from '../../../discord/command.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import type { WebhooksDeps } from '../feature.js';
import { readServerKeyInput, saveServerKey } from '../server-key.js';

/** What /setup is given: its feature's dependencies, no more. */
export type SetupCommandDeps = CommandBasics & WebhooksDeps;

/** The server key's dialog: its custom id, and its one text input's. */
const KEY_DIALOG_ID = 'webhooks:server-key';
const KEY_INPUT_ID = 'key';

/**
 * /setup: asks for the server key in a dialog, never as a slash-command option, whose value Discord would show
 * in the channel's "used /setup" line and keep in the client's command history.
 */
export const setupCommand: Command<SetupCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('setup')
    .setDescription("Set this server's key for the service (server API v2, starts with usk_)")
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild),

  async execute(interaction) {
    requireAdmin(interaction);
    await interaction.showModal(buildKeyDialog());
  },
};

/** The dialog of /setup submitted: the key checked for its shape, then sealed and stored. */
export const serverKeyDialog: DialogHandler<SetupCommandDeps> = {
  id: KEY_DIALOG_ID,
  command: 'setup',

  async run(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const input = readServerKeyInput(interaction.fields.getTextInputValue(KEY_INPUT_ID));
    if (!input.ok) {
      await replyEphemeral(interaction, input.problem);
      return;
    }
    const replaced = await saveServerKey(ctx, guildId, input.key);
    const storage = ctx.secrets.encrypts
      ? 'It is stored encrypted.'
      : "It is stored unencrypted: the bot's host can set SECRET_KEY to encrypt stored keys.";
    const next = replaced
      ? 'It replaces the previous key; the service checks it at the next /webhook command.'
      : 'Next: /webhook register, then /webhook test.';
    await replyEphemeral(interaction, `Server key saved. ${storage} ${next}`);
  },
};

function buildKeyDialog(): ModalBuilder {
  const input = new TextInputBuilder()
    .setCustomId(KEY_INPUT_ID)
    .setStyle(TextInputStyle.Short)
    .setPlaceholder('usk_…')
    .setRequired(true)
    .setMinLength(8)
    .setMaxLength(1024);
  return new ModalBuilder()
    .setCustomId(KEY_DIALOG_ID)
    .setTitle('Server key')
    .addLabelComponents(
      new LabelBuilder()
        .setLabel('Server key (server API v2)')
        .setDescription('Starts with usk_. Not the developer key (upk_), which manages apps.')
        .setTextInputComponent(input),
    );
}
