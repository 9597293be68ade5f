import type { ChatInputCommandInteraction } from 'discord.js';

import { findGuildHook, requireServiceId } from '../../src/admin/find-webhook.js';
import { readServiceReport } from '../../src/admin/ping-result.js';
import { openServerKey } from '../../src/admin/server-key.js';
import { callService } from '../../src/admin/service-failure.js';
import { replyEphemeral } from '../../src/discord/reply.js';
import type { CommandContext } from '../context.js';

/** /webhook enable [webhook]: switches a webhook the service turned off (after 20 failures) back on. */
export async function enableWebhook(
  interaction: ChatInputCommandInteraction,
  ctx: CommandContext,
  guildId: string,
): Promise<void> {
  const hook = requireServiceId(await findGuildHook(ctx.hooks, guildId, interaction.options.getString('webhook')));
  const key = await openServerKey(ctx, guildId);
  const answer = await callService('switch the webhook on', () => ctx.service.enableWebhook(key, hook.webhookId));
  // A 2xx is the service's yes; only an answer saying otherwise in so many words overrides it.
  const enabled = readServiceReport(answer).enabled ?? true;
  await ctx.activity.recordState(hook.hookId, enabled, ctx.clock());
  await replyEphemeral(
    interaction,
    enabled
      ? `Webhook \`${hook.webhookId}\` is switched on again. Run /webhook test to check that deliveries arrive.`
      : `The service accepted the request but says webhook \`${hook.webhookId}\` is still off: try again later.`,
  );
}
