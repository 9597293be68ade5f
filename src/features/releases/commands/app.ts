import { InteractionContextType, SlashCommandBuilder, type SlashCommandStringOption } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type {
  ButtonHandler,
  Command,
  CommandBasics,
  ComponentHandler,
  DialogHandler,
} from '../../../discord/command.js';
import { FEED_CHANNEL_TYPES } from '../../../discord/feed-channel.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import type { ReleasesDeps } from '../feature.js';
import { suggestApps } from './app/autocomplete.js';
import { askForDeveloperKey, KEY_DIALOG_ID, saveDeveloperKey } from './app/key.js';
import { listApps, showApp } from './app/list.js';
import { setManagers } from './app/managers.js';
import { NEW_APP_ACTION, openNewAppDialog, prepareNewApp } from './app/new.js';
import { cancelSubmission, sendSubmission } from './app/send.js';
import { APP_COMMAND, appHandlerId } from './app/shared.js';
import { completeFields, FIELDS_ACTION, FILL_ACTION, openFieldsDialog } from './app/submission-fields.js';
import { CANCEL_ACTION, SEND_ACTION } from './app/submission-preview.js';
import { prepareSubmission } from './app/submit.js';
import { listUploads } from './app/uploads.js';
import { unwatchApp, watchApp } from './app/watch.js';
import { confirmWithdrawal, KEEP_ACTION, keepSubmission, WITHDRAW_ACTION, withdrawSubmission } from './app/withdraw.js';

/** What /app is given: its feature's dependencies, no more. */
export type AppCommandDeps = CommandBasics & ReleasesDeps;

const appOption = (description: string) => (option: SlashCommandStringOption) =>
  option.setName('app').setDescription(description).setRequired(true).setAutocomplete(true).setMaxLength(100);

/**
 * /app key|list|show|watch|unwatch|submit|new|withdraw|uploads|managers: the service's developer API in
 * Discord. Everyone in the server may list and show; key, watch, unwatch and managers need Manage Server;
 * submit, new, withdraw and uploads need the release-manager role (/app managers) or Manage Server. Each is
 * checked when it runs, and again on every button click. Every answer is ephemeral.
 */
export const appCommand: Command<AppCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName(APP_COMMAND)
    .setDescription("Your apps in the service's app store: release cards, submissions")
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) => sub.setName('key').setDescription('Set the developer key (upk_…) (Manage Server)'))
    .addSubcommand((sub) => sub.setName('list').setDescription('Your apps and the version waiting for review'))
    .addSubcommand((sub) =>
      sub.setName('show').setDescription("One app's versions and review states").addStringOption(appOption('The app')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('watch')
        .setDescription('Post a release card per version in a channel (Manage Server)')
        .addStringOption(appOption('The app to follow'))
        .addChannelOption((option) =>
          option
            .setName('channel')
            .setDescription('Where its release cards go')
            .setRequired(true)
            .addChannelTypes(...FEED_CHANNEL_TYPES),
        )
        .addRoleOption((option) => option.setName('role').setDescription('Pinged when a version leaves review')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('unwatch')
        .setDescription('Stop the release cards of an app (Manage Server)')
        .addStringOption(appOption('The app')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('submit')
        .setDescription('Send a new version for review (release managers)')
        .addStringOption(appOption('The app'))
        .addStringOption((option) =>
          option.setName('version').setDescription('Version label, e.g. 1.4.0').setRequired(true).setMaxLength(64),
        )
        .addStringOption((option) =>
          option.setName('whats-new').setDescription('Change note for this version').setRequired(true),
        )
        .addAttachmentOption((option) =>
          option.setName('file').setDescription('The build: .zip, .tar.gz, .tar or a code file'),
        )
        .addStringOption((option) =>
          option.setName('repo-ref').setDescription('Tag or ref in the repository').setMaxLength(200),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('new')
        .setDescription('Send a first app for review (release managers)')
        .addAttachmentOption((option) =>
          option
            .setName('details')
            .setDescription('JSON with the other fields (see docs/developer-api.md)')
            .setRequired(true),
        )
        .addAttachmentOption((option) =>
          option.setName('file').setDescription('The build: .zip, .tar.gz, .tar or a code file'),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('withdraw')
        .setDescription('Withdraw the version waiting for review (release managers)')
        .addStringOption(appOption('The app')),
    )
    .addSubcommand((sub) =>
      sub.setName('uploads').setDescription('Uploads no version uses yet, and their time left (release managers)'),
    )
    .addSubcommand((sub) =>
      sub
        .setName('managers')
        .setDescription('Who may send and withdraw versions (Manage Server)')
        .addRoleOption((option) =>
          option.setName('role').setDescription('The release managers; leave out: admins only'),
        ),
    ),

  async execute(interaction, ctx) {
    const guildId = interaction.guildId;
    if (!guildId) throw new UserFacingError('Use this command in a server, not in direct messages.');
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'key':
        return askForDeveloperKey(interaction);
      case 'list':
        return listApps(interaction, ctx, guildId);
      case 'show':
        return showApp(interaction, ctx, guildId);
      case 'watch':
        requireAdmin(interaction);
        return watchApp(interaction, ctx, guildId);
      case 'unwatch':
        requireAdmin(interaction);
        return unwatchApp(interaction, ctx, guildId);
      case 'submit':
        return prepareSubmission(interaction, ctx, guildId);
      case 'new':
        return openNewAppDialog(interaction, ctx, guildId);
      case 'withdraw':
        return confirmWithdrawal(interaction, ctx, guildId);
      case 'uploads':
        return listUploads(interaction, ctx, guildId);
      case 'managers':
        requireAdmin(interaction);
        return setManagers(interaction, ctx, guildId);
      default:
        throw new Error(`unknown /app subcommand ${subcommand}`);
    }
  },

  autocomplete: (interaction, ctx) => suggestApps(interaction, ctx),

  readOnly: (subcommand) => subcommand === 'list' || subcommand === 'show' || subcommand === 'uploads',
};

/** The buttons of /app's previews and confirmations: `releases:<action>:<draft id>`. */
export const appButtons: Array<ButtonHandler<AppCommandDeps>> = [
  appHandler(SEND_ACTION, sendSubmission),
  appHandler(CANCEL_ACTION, cancelSubmission),
  appHandler(FILL_ACTION, openFieldsDialog),
  appHandler(WITHDRAW_ACTION, withdrawSubmission),
  appHandler(KEEP_ACTION, keepSubmission),
];

/** The dialogs of /app: the developer key, a new app's fields, a submission's missing fields. */
export const appDialogs: Array<DialogHandler<AppCommandDeps>> = [
  { id: KEY_DIALOG_ID, command: APP_COMMAND, run: saveDeveloperKey },
  appHandler(NEW_APP_ACTION, prepareNewApp),
  appHandler(FIELDS_ACTION, completeFields),
];

/** The handler of an /app button or dialog: `run` is given the draft's id its custom id carries. */
function appHandler<I>(
  action: string,
  run: (interaction: I, ctx: AppCommandDeps, draftId: string) => Promise<void>,
): ComponentHandler<AppCommandDeps, I> {
  return { id: appHandlerId(action), command: APP_COMMAND, run };
}
