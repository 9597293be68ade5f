import type { AutocompleteInteraction } from 'discord.js';

import { truncateText } from '../../../../base/truncate-text.js';
import { isAdmin } from '../../../../discord/require-admin.js';
import { describeEvents } from '../../../../upstream/event-choices.js';
import { webhookName } from '../../find-webhook.js';
import type { WebhookCommandDeps } from '../webhook.js';

/** Discord shows at most 25 suggestions, each named in at most 100 characters. */
const MAX_CHOICES = 25;
const MAX_NAME = 100;

/**
 * Suggests the guild's webhooks for a `webhook` option: "<webhook id> · <events>", valued by hookId. Members
 * without Manage Server get nothing: the list is the admins' business.
 */
export async function suggestWebhooks(
  interaction: AutocompleteInteraction,
  ctx: Pick<WebhookCommandDeps, 'hooks'>,
): Promise<void> {
  if (!isAdmin(interaction) || !interaction.guildId) {
    await interaction.respond([]);
    return;
  }
  const typed = interaction.options.getFocused().trim().toLowerCase();
  const hooks = await ctx.hooks.listForGuild(interaction.guildId);
  const choices = hooks
    .map((hook) => ({
      name: truncateText(`${webhookName(hook)} · ${describeEvents(hook.events)}`, MAX_NAME),
      value: hook.hookId,
    }))
    .filter((choice) => choice.name.toLowerCase().includes(typed))
    .slice(0, MAX_CHOICES);
  await interaction.respond(choices);
}
