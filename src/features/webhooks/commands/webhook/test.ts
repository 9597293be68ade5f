import type { ChatInputCommandInteraction } from 'discord.js';

import { replyEphemeral } from '../../../../discord/reply.js';
import { findGuildHook, requireServiceId } from '../../find-webhook.js';
import { describePing } from '../../ping-result.js';
import { pingWebhook } from '../../ping-webhook.js';
import { openServerKey } from '../../server-key.js';
import type { WebhookCommandDeps } from '../webhook.js';

/**
 * /webhook test [webhook]: asks the service to ping the webhook and waits for the ping at our own intake, so
 * a success proves the whole path (address, HTTPS, proxy, secret, clock), not only that the service agreed.
 */
export async function testWebhook(
  interaction: ChatInputCommandInteraction,
  ctx: WebhookCommandDeps,
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
