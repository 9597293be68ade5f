import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  type APIEmbed,
  type RepliableInteraction,
} from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { truncateText } from '../../../../base/truncate-text.js';
import { customIdOf } from '../../../../discord/command.js';
import type { DeveloperCaller } from '../../../../upstream/developer-client.js';
import type { AppSummary, DeveloperOptions } from '../../../../upstream/developer-schemas.js';
import type { ServiceApiError } from '../../../../upstream/service-api-error.js';
import type { AppGuild } from '../../app-documents.js';
import { callDeveloper, type DeveloperKeyDeps } from '../../developer-key.js';
import type { AppCommandDeps } from '../app.js';

/** The slash command's name. */
export const APP_COMMAND = 'app';

/** The handler of an /app button or dialog: `releases:<action>`. */
export function appHandlerId(action: string): string {
  return `releases:${action}`;
}

/** The custom id of an /app button or dialog: `releases:<action>:<draft id>` (`releases:<action>` without one). */
export function appCustomId(action: string, draftId = ''): string {
  return draftId === '' ? appHandlerId(action) : customIdOf(appHandlerId(action), draftId);
}

/** What calling the developer API for a command needs, from the command context. */
export function keyDeps(ctx: AppCommandDeps): DeveloperKeyDeps {
  return { documents: ctx.appDocuments, secrets: ctx.secrets, logger: ctx.logger, clock: ctx.clock };
}

/** One developer API call for a command (see callDeveloper): the guild's key, errors in words. */
export function askService<T>(
  ctx: AppCommandDeps,
  guild: AppGuild,
  action: string,
  call: (caller: DeveloperCaller) => Promise<T>,
  special?: (error: ServiceApiError) => string | undefined,
): Promise<T> {
  return callDeveloper(keyDeps(ctx), guild, action, call, special);
}

/**
 * The guild's apps: from the cache while younger than `maxAgeMs` (default a minute; the poller refreshes it),
 * else GET /apps.
 */
export function loadApps(ctx: AppCommandDeps, guild: AppGuild, maxAgeMs?: number): Promise<AppSummary[]> {
  return ctx.developerCache.apps.get(
    guild.guildId,
    () => askService(ctx, guild, 'list your apps', (caller) => ctx.developer.listApps(caller)),
    maxAgeMs,
  );
}

/** GET /options, cached for an hour per guild. */
export function loadOptions(ctx: AppCommandDeps, guild: AppGuild): Promise<DeveloperOptions> {
  return ctx.developerCache.options.get(guild.guildId, () =>
    askService(ctx, guild, 'read the allowed values (options)', (caller) => ctx.developer.getOptions(caller)),
  );
}

/**
 * The app an `app` option names: the id autocomplete filled in, or an id or name typed by hand.
 * @throws UserFacingError when the account has no such app
 */
export async function resolveApp(ctx: AppCommandDeps, guild: AppGuild, typed: string): Promise<AppSummary> {
  const wanted = typed.trim();
  const find = (apps: AppSummary[]) =>
    apps.find((app) => app.id === wanted) ?? apps.find((app) => app.name.toLowerCase() === wanted.toLowerCase());
  // An app made in the portal a moment ago is not in a cached list yet: one fresh look before saying no.
  const found = find(await loadApps(ctx, guild)) ?? find(await loadApps(ctx, guild, 0));
  if (!found) {
    throw new UserFacingError('The developer account has no such app: choose one from the list, or see /app list.');
  }
  return found;
}

/** Submit and Cancel (or other) buttons for a preview. */
export function confirmButtons(
  draftId: string,
  yes: { action: string; label: string; style?: ButtonStyle },
  no: { action: string; label: string },
): ActionRowBuilder<ButtonBuilder> {
  return new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(appCustomId(yes.action, draftId))
      .setLabel(yes.label)
      .setStyle(yes.style ?? ButtonStyle.Primary),
    new ButtonBuilder().setCustomId(appCustomId(no.action, draftId)).setLabel(no.label).setStyle(ButtonStyle.Secondary),
  );
}

/** Shows a preview or confirmation (text, embed, buttons) as the ephemeral answer of a deferred interaction. */
export async function showPreview(
  interaction: RepliableInteraction,
  content: string,
  embeds: APIEmbed[],
  buttons: ActionRowBuilder<ButtonBuilder>,
): Promise<void> {
  const body = { content: truncateText(content, 2000), embeds, components: [buttons], allowedMentions: { parse: [] } };
  if (interaction.deferred || interaction.replied) await interaction.editReply(body);
  else await interaction.reply({ ...body, flags: MessageFlags.Ephemeral });
}

/** A size in words: 2.4 MB, 830 KB, 12 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
