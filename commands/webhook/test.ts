import type { ChatInputCommandInteraction } from 'discord.js';

import { findGuildHook, requireServiceId } from '../../src/admin/find-webhook.js';
import { describePing, readServiceReport } from '../../src/admin/ping-result.js';
import { openServerKey } from '../../src/admin/server-key.js';
import { callService, saysDisabled } from '../../src/admin/service-failure.js';
import { replyEphemeral } from '../../src/discord/reply.js';
import type { HookOutcome } from '../../src/store/hook-activity.js';
import { waitForHookOutcome } from '../../src/store/hook-outcomes.js';
import { PING_EVENT } from '../../src/upstream/schemas.js';
import type { CommandContext } from '../context.js';

/**
 * Once the service has answered and says how its ping went, the intake has already seen it (the service
 * waits for our answer before giving its own); this short grace only absorbs scheduling.
 */
const ANSWERED_GRACE_MS = 250;

/**
 * /webhook test [webhook]: asks the service to ping the webhook and waits for the ping at our own intake, so
 * a success proves the whole path (address, HTTPS, proxy, secret, clock), not only that the service agreed.
 */
export async function testWebhook(
  interaction: ChatInputCommandInteraction,
  ctx: CommandContext,
  guildId: string,
): Promise<void> {
  const hook = requireServiceId(await findGuildHook(ctx.hooks, guildId, interaction.options.getString('webhook')));
  const key = await openServerKey(ctx, guildId);

  const startedAt = ctx.clock();
  // Listening starts before the request: the ping may arrive before the service answers us.
  const arrival = waitForHookOutcome(ctx.signals, hook.hookId, isPingOrRefusal, ctx.pingTimeoutMs);
  let saidOff = false;
  const answer = await callService(
    'ask the service for a test ping',
    () => ctx.service.testWebhook(key, hook.webhookId),
    (error) => {
      if (!saysDisabled(error)) return undefined;
      saidOff = true;
      return `The service says webhook \`${hook.webhookId}\` is switched off: run /webhook enable, then test again.`;
    },
  ).catch(async (error: unknown) => {
    if (saidOff) await ctx.activity.recordState(hook.hookId, false, ctx.clock());
    throw error;
  });
  const report = readServiceReport(answer);
  if (report.enabled !== undefined) await ctx.activity.recordState(hook.hookId, report.enabled, ctx.clock());
  const outcome = report.delivered === undefined ? await arrival : await settleWithin(arrival, ANSWERED_GRACE_MS);

  await replyEphemeral(
    interaction,
    describePing({
      outcome,
      report,
      elapsedMs: outcome ? outcome.at - startedAt : 0,
      webhook: hook.webhookId,
      publicUrl: ctx.publicUrl,
      timeoutMs: ctx.pingTimeoutMs,
    }),
  );
}

/** The ping itself, or any refusal: a refused ping carries no event name we could check. */
function isPingOrRefusal(outcome: HookOutcome): boolean {
  return !outcome.ok || outcome.event === PING_EVENT;
}

/** The promise's value if it settles within `ms`, else undefined. */
async function settleWithin<T>(promise: Promise<T | undefined>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
