import type { ChatInputCommandInteraction } from 'discord.js';

import { replyEphemeral } from '../../../../discord/reply.js';
import { switchWebhookOn } from '../../enable-webhook.js';
import { findGuildHook, requireServiceId } from '../../find-webhook.js';
import { openServerKey } from '../../server-key.js';
import type { WebhookCommandDeps } from '../webhook.js';

/** /webhook enable [webhook]: switches a webhook the service turned off (after 20 failures) back on. */
export async function enableWebhook(
  interaction: ChatInputCommandInteraction,
  ctx: WebhookCommandDeps,
  guildId: string,
): Promise<void> {
  const hook = requireServiceId(await findGuildHook(ctx.hooks, guildId, interaction.options.getString('webhook')));
  const key = await openServerKey(ctx, guildId);
  const enabled = await switchWebhookOn(ctx, hook, key);
  await replyEphemeral(
    interaction,
    enabled
      ? `Webhook \`${hook.webhookId}\` is switched on again. Run /webhook test to check that deliveries arrive.`
      : `The service accepted the request but says webhook \`${hook.webhookId}\` is still off: try again later.`,
  );
}
