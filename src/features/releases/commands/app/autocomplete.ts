import type { AutocompleteInteraction } from 'discord.js';

import { truncateText } from '../../../../base/truncate-text.js';
import type { AppCommandDeps } from '../app.js';
import { loadApps } from './shared.js';

const MAX_CHOICES = 25;
const MAX_NAME = 100;

/**
 * Suggests the account's apps for an `app` option from the cached list: keystrokes cost no request. Only when
 * nothing is cached (or it is over a minute old) is GET /apps asked, once for all keystrokes waiting on it.
 * Without a usable key, or when the budget says wait, there is simply nothing to suggest.
 */
export async function suggestApps(interaction: AutocompleteInteraction, ctx: AppCommandDeps): Promise<void> {
  const guildId = interaction.guildId;
  if (!guildId) {
    await interaction.respond([]);
    return;
  }
  const guild = await ctx.appDocuments.readGuild(guildId);
  const apps =
    ctx.developerCache.apps.peek(guildId) ??
    (guild.developerKey === null ? [] : await loadApps(ctx, guild).catch(() => []));
  const typed = interaction.options.getFocused().trim().toLowerCase();
  const choices = apps
    .map((app) => ({
      name: truncateText(
        `${app.name} · app ${app.id}${app.pending ? ` · ${app.pending.label} in review` : ''}`,
        MAX_NAME,
      ),
      value: app.id,
    }))
    .filter((choice) => choice.name.toLowerCase().includes(typed))
    .slice(0, MAX_CHOICES);
  await interaction.respond(choices);
}
