import type { ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { replyEphemeral } from '../../../../discord/reply.js';
import { makeHookId } from '../../../../store/hooks.js';
import type { ServiceApiError } from '../../../../upstream/client.js';
import { describeEvents, expandEventChoice } from '../../../../upstream/event-choices.js';
import { MAX_WEBHOOKS_PER_KEY } from '../../../../upstream/schemas.js';
import { callService } from '../../../../upstream/service-failure.js';
import { openServerKey } from '../../server-key.js';
import type { WebhookCommandDeps } from '../webhook.js';

/**
 * /webhook register events:<event|all>: registers a webhook with the service for this guild and keeps its
 * secret, sealed. A fourth webhook is refused here, before the service would refuse it.
 */
export async function registerWebhook(
  interaction: ChatInputCommandInteraction,
  ctx: WebhookCommandDeps,
  guildId: string,
): Promise<void> {
  const events = expandEventChoice(interaction.options.getString('events', true));
  if (!events) throw new UserFacingError('Choose the events from the list.');
  const key = await openServerKey(ctx, guildId);
  const existing = await ctx.hooks.listForGuild(guildId);
  if (existing.length >= MAX_WEBHOOKS_PER_KEY) {
    throw new UserFacingError(
      `This server already has ${existing.length} webhooks, the most one server key may have. Reuse one (see /webhook list; ` +
        'one for all events covers everything), or remove one with /webhook remove. The service documents no delete, ' +
        'so it may go on counting a removed webhook.',
    );
  }

  const hookId = makeHookId();
  const created = await callService(
    'register the webhook',
    () => ctx.service.createWebhook(key, { url: `${ctx.webhookBaseUrl}/webhooks/${hookId}`, events }),
    explainLimit,
  );
  const now = ctx.clock();
  await ctx.hooks.save({
    hookId,
    guildId,
    webhookId: created.id,
    secret: ctx.secrets.seal(created.secret),
    events,
    createdAt: now,
  });
  await ctx.activity.noteState(hookId, true, now);
  await replyEphemeral(
    interaction,
    `Webhook \`${created.id}\` registered for ${describeEvents(events)}. ` +
      'Next: /webhook test to prove deliveries arrive, and /feed default or /feed set to choose channels.',
  );
}

/**
 * The service's own refusal of a fourth webhook (the fake answers 409 webhook_limit; the real code is not
 * documented), with what the admin can do about it. A 429 is the rate limit, which the client explains itself.
 */
function explainLimit(error: ServiceApiError): string | undefined {
  const saysLimit = /limit|at most|too many/i.test(`${error.code ?? ''} ${error.serviceMessage ?? ''}`);
  if (error.status === 429 || !(saysLimit || (error.status === 409 && error.code === undefined))) return undefined;
  return (
    'The service refused: this server key already has the most webhooks it allows there, counting webhooks removed ' +
    'here (the service documents no delete). Reuse one from /webhook list, or ask the service to delete one.'
  );
}
