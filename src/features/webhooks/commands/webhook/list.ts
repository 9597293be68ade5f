import type { ChatInputCommandInteraction } from 'discord.js';

import { replyEphemeral } from '../../../../discord/reply.js';
import { MAX_WEBHOOKS_PER_KEY } from '../../../../upstream/schemas.js';
import { describeHook } from '../../describe-hook.js';
import type { WebhookCommandDeps } from '../webhook.js';

// The service tells nobody when it switches a webhook off, and offers no way to ask.
const STATE_NOTE =
  'On/off is what this bot last learnt. The service switches a webhook off after 20 failed deliveries without ' +
  'saying so: /webhook test and /webhook enable are always safe to run.';

/** /webhook list: the guild's webhooks and what the intake saw of each. */
export async function listWebhooks(
  interaction: ChatInputCommandInteraction,
  ctx: WebhookCommandDeps,
  guildId: string,
): Promise<void> {
  const hooks = await ctx.hooks.listForGuild(guildId);
  if (hooks.length === 0) {
    await replyEphemeral(interaction, 'This server has no webhooks yet: run /webhook register.');
    return;
  }
  const lines = await Promise.all(hooks.map(async (hook) => describeHook(hook, await ctx.activity.get(hook.hookId))));
  await replyEphemeral(
    interaction,
    [
      `**Webhooks of this server** (${hooks.length} of ${MAX_WEBHOOKS_PER_KEY} a key may have)`,
      ...lines,
      STATE_NOTE,
    ].join('\n'),
  );
}
