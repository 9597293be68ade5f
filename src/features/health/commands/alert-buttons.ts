import { MessageFlags, time, TimestampStyles, type ButtonInteraction } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { ButtonHandler } from '../../../discord/command.js';
import { deferEphemeral, replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import {
  describePing,
  openServerKey,
  pingWebhook,
  requireServiceId,
  switchWebhookOn,
  type PingRun,
  type ServiceHook,
} from '../../webhooks/index.js';
import { renderHeldPage } from '../held-entries.js';
import { ALERT_BUTTON } from '../render-alert.js';
import type { HealthCommandDeps } from './command-deps.js';

/**
 * A click on an alert's button (`health:alert:<action>:<hook id>`). Anyone who sees the alert can click, so
 * Manage Server is checked first, before anything is sent to the service.
 */
export const alertButton: ButtonHandler<HealthCommandDeps> = {
  id: ALERT_BUTTON,
  command: 'alerts',

  async run(interaction, ctx, args) {
    const guildId = requireAdmin(interaction);
    const [action = '', subject = ''] = args.split(':');
    switch (action) {
      case 'reenable':
      case 'test':
        return actOnWebhook(interaction, ctx, guildId, subject, action);
      case 'held':
        return showHeld(interaction, ctx, guildId);
      default:
        throw new Error(`unknown alert button ${action}`);
    }
  },

  // Show held only lists them.
  readOnly: (args) => args.startsWith('held'),
};

async function actOnWebhook(
  interaction: ButtonInteraction,
  ctx: HealthCommandDeps,
  guildId: string,
  hookId: string,
  action: 'reenable' | 'test',
): Promise<void> {
  const stored = await ctx.hooks.get(hookId);
  // Only this server's webhooks: a custom id can be forged, the hook's guild cannot.
  if (!stored || stored.guildId !== guildId) {
    throw new UserFacingError('That webhook is no longer registered here: see /webhook list.');
  }
  const hook = requireServiceId(stored);
  await deferEphemeral(interaction);
  const key = await openServerKey(ctx, guildId);
  const enabled = action === 'reenable' ? await switchWebhookOn(ctx, hook, key) : undefined;
  const run = await pingWebhook(ctx, hook, key);
  const at = time(Math.floor(ctx.clock() / 1000), TimestampStyles.ShortTime);
  const did =
    action === 'reenable' ? (enabled ? 're-enabled the webhook' : 'asked to re-enable (still off)') : 'sent a test';
  await ctx.health.monitor.noteAction(guildId, hookId, `${at} <@${interaction.user.id}> ${did}: ${pingVerdict(run)}.`);
  const ping = describePing({
    ...run,
    webhook: hook.webhookId,
    publicUrl: ctx.publicUrl,
    timeoutMs: ctx.pingTimeoutMs,
  });
  await replyEphemeral(interaction, action === 'reenable' ? `${switchedText(hook, enabled)} ${ping}` : ping);
}

function switchedText(hook: ServiceHook, enabled: boolean | undefined): string {
  return enabled
    ? `Webhook \`${hook.webhookId}\` is switched on again.`
    : `The service accepted the request but says webhook \`${hook.webhookId}\` is still off.`;
}

/** The test ping's result in a few words, for the alert's history. */
function pingVerdict(run: PingRun): string {
  if (!run.outcome) return 'test ping did not arrive';
  return run.outcome.ok
    ? 'test ping arrived and verified'
    : `test ping refused (${run.outcome.reason.replace(/_/g, ' ')})`;
}

/** The held list of /feed held, page 1, with its buttons. */
async function showHeld(interaction: ButtonInteraction, ctx: HealthCommandDeps, guildId: string): Promise<void> {
  const page = await renderHeldPage(ctx, guildId, 1);
  await interaction.reply({ ...page, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
}
