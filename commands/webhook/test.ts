import type { ChatInputCommandInteraction } from 'discord.js';

import { replyEphemeral } from '../../src/discord/reply.js';
import { findGuildHook, requireServiceId } from '../../src/features/webhooks/find-webhook.js';
import { describePing } from '../../src/features/webhooks/ping-result.js';
import { pingWebhook } from '../../src/features/webhooks/ping-webhook.js';
import { openServerKey } from '../../src/features/webhooks/server-key.js';
import type { WebhookDeps } from '../webhook.js';

/**
 * /webhook test [webhook]: asks the service to ping the webhook and waits for the ping at our own intake, so
 * a success proves the whole path (address, HTTPS, proxy, secret, clock), not only that the service agreed.
 */
export async function testWebhook(
  interaction: ChatInputCommandInteraction,
  ctx: WebhookDeps,
  guildId: string,
): Promise<void> {
  const hook = requireServiceId(await findGuildHook(ctx.hooks, guildId, interaction.options.getString('webhook')));
  const key = await openServerKey(ctx, guildId);
  const run = await pingWebhook(ctx, hook, key);
  await replyEphemeral(
    interaction,
    describePing({ ...run, webhook: hook.webhookId, publicUrl: ctx.publicUrl, timeoutMs: ctx.pingTimeoutMs }),
  );
}
