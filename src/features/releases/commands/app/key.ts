import {
  LabelBuilder,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';

import { deferEphemeral, replyEphemeral } from '../../../../discord/reply.js';
import { requireAdmin } from '../../../../discord/require-admin.js';
import { formatName } from '../../../../embeds/format.js';
import type { ServiceApiError } from '../../../../upstream/service-api-error.js';
import { callService } from '../../../../upstream/service-failure.js';
import { readDeveloperKeyInput } from '../../developer-key.js';
import type { AppCommandDeps } from '../app.js';
import { appCustomId } from './shared.js';

/** The /app key dialog and its one text input. */
export const KEY_DIALOG_ID = appCustomId('key');
const KEY_INPUT_ID = 'key';

/**
 * /app key: the developer key in a dialog (never a command option, which Discord would show and keep in the
 * command history), checked with GET /me before it is stored, sealed.
 */
export async function askForDeveloperKey(interaction: ChatInputCommandInteraction): Promise<void> {
  requireAdmin(interaction);
  const input = new TextInputBuilder()
    .setCustomId(KEY_INPUT_ID)
    .setStyle(TextInputStyle.Short)
    .setPlaceholder('upk_…')
    .setRequired(true)
    .setMinLength(8)
    .setMaxLength(1024);
  await interaction.showModal(
    new ModalBuilder()
      .setCustomId(KEY_DIALOG_ID)
      .setTitle('Developer key')
      .addLabelComponents(
        new LabelBuilder()
          .setLabel('Developer key (developer API v1)')
          .setDescription('Starts with upk_. Not the server key (usk_) of /setup.')
          .setTextInputComponent(input),
      ),
  );
}

/** The dialog's submit: check the key with the service, then store it and show the account's name. */
export async function saveDeveloperKey(interaction: ModalSubmitInteraction, ctx: AppCommandDeps): Promise<void> {
  const guildId = requireAdmin(interaction);
  const input = readDeveloperKeyInput(interaction.fields.getTextInputValue(KEY_INPUT_ID));
  if (!input.ok) {
    await replyEphemeral(interaction, input.problem);
    return;
  }
  await deferEphemeral(interaction);
  const account = await callService(
    'check the key with the service',
    () => ctx.developer.getMe({ key: input.key, purpose: 'command' }),
    explainRefusal,
  );
  const now = ctx.clock();
  const before = await ctx.appDocuments.readGuild(guildId);
  await ctx.appDocuments.updateGuild(guildId, (guild) => ({
    ...guild,
    developerKey: ctx.secrets.seal(input.key),
    accountName: account.name ?? null,
    keySetAt: now,
    keyRefusal: null,
    poll: { lastGoodAt: guild.poll.lastGoodAt, failures: 0, lastProblem: null, alertedAt: null },
  }));
  ctx.developerCache.forgetGuild(guildId);
  for (const appId of Object.keys(before.watches)) ctx.releases.pollSoon(guildId, appId);
  const name = account.name === undefined ? 'the developer account' : `**${formatName(account.name)}**`;
  const storage = ctx.secrets.encrypts
    ? 'It is stored encrypted.'
    : "It is stored unencrypted: the bot's host can set SECRET_KEY to encrypt stored keys.";
  const next =
    before.keyRefusal !== null
      ? 'Release cards resume with the next poll.'
      : 'Next: /app list, then /app watch to post release cards.';
  await replyEphemeral(interaction, `Developer key saved for ${name}. ${storage} ${next}`);
}

/** The service's 401 or 403 to the key being checked: nothing is stored, and the admin learns why. */
function explainRefusal(error: ServiceApiError): string | undefined {
  if (error.status === 401) {
    return 'The service does not accept this key (401: wrong, replaced or revoked), so nothing was stored. Copy the current key from the API key page and run /app key again.';
  }
  if (error.status === 403) {
    return "The service says this account's developer access was revoked (403), so nothing was stored.";
  }
  return undefined;
}
