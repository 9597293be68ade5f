import type { ChatInputCommandInteraction } from 'discord.js';

import { replyEphemeral } from '../../../../discord/reply.js';
import { findGuildHook, webhookName } from '../../find-webhook.js';
import type { WebhookCommandDeps } from '../webhook.js';

/**
 * /webhook remove [webhook]: forgets a webhook here. The service documents no delete (upstream-api.md §4.2),
 * so the reply says what follows from that instead of pretending the webhook is gone everywhere.
 */
export async function removeWebhook(
  interaction: ChatInputCommandInteraction,
  ctx: WebhookCommandDeps,
  guildId: string,
): Promise<void> {
  const hook = await findGuildHook(ctx.hooks, guildId, interaction.options.getString('webhook'));
  await ctx.hooks.remove(hook.hookId);
  await ctx.activity.forget(hook.hookId);
  await replyEphemeral(
    interaction,
    `Webhook \`${webhookName(hook)}\` is forgotten here. The service documents no delete: it may keep sending to this bot ` +
      'until it switches the webhook off after 20 failed deliveries, and this bot answers those with 404. ' +
      'It may also still count towards the 3 webhooks a key may have.',
  );
}
