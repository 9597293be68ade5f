import type { ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { findMissingPermissions, readFeedChannel } from '../../../../discord/feed-channel.js';
import { replyEphemeral } from '../../../../discord/reply.js';
import { DEFAULT_SILENCE_HOURS } from '../../alert-settings.js';
import { describeIncident } from '../../describe-health.js';
import type { HealthCommandDeps } from '../command-deps.js';

/** /alerts set channel [role] [silence]: where health alerts go, whom they ping, when silence is checked. */
export async function setAlerts(
  interaction: ChatInputCommandInteraction,
  ctx: HealthCommandDeps,
  guildId: string,
): Promise<void> {
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  const missing = await findMissingPermissions(channel);
  if (missing.length > 0) {
    throw new UserFacingError(`I cannot post alerts in <#${channel.id}>: I need ${missing.join(', ')} there.`);
  }
  const role = interaction.options.getRole('role');
  // @everyone's id is the guild's; allowed_mentions cannot name it as a role, and alerts should not ping everyone.
  if (role?.id === guildId) throw new UserFacingError('Choose a role other than @everyone.');
  const previous = await ctx.health.settings.get(guildId);
  const silenceHours = interaction.options.getInteger('silence') ?? previous?.silenceHours ?? DEFAULT_SILENCE_HOURS;
  await ctx.health.settings.set({ guildId, channelId: channel.id, roleId: role?.id ?? null, silenceHours });
  // Incidents already open are posted to the new channel now, not at their next change.
  await ctx.health.monitor.checkGuild(guildId);
  await ctx.health.monitor.postOpen(guildId);
  await replyEphemeral(
    interaction,
    `Health alerts go to <#${channel.id}>${role ? ` and ping <@&${role.id}>` : ''}. ` +
      `A webhook silent for ${silenceHours} h is checked with a test ping.`,
  );
}

/** /alerts off: no more alert messages (incidents are still tracked and shown by /alerts show and /status). */
export async function turnAlertsOff(
  interaction: ChatInputCommandInteraction,
  ctx: HealthCommandDeps,
  guildId: string,
): Promise<void> {
  await ctx.health.settings.clear(guildId);
  await replyEphemeral(interaction, 'Health alerts are off. /alerts show and /status still show open incidents.');
}

/** /alerts show: where alerts go, and the incidents open now. */
export async function showAlerts(
  interaction: ChatInputCommandInteraction,
  ctx: HealthCommandDeps,
  guildId: string,
): Promise<void> {
  const settings = await ctx.health.settings.get(guildId);
  const lines = [
    settings
      ? `Health alerts go to <#${settings.channelId}>${settings.roleId ? ` and ping <@&${settings.roleId}>` : ''}; a webhook silent for ${settings.silenceHours} h is checked with a test ping.`
      : 'Health alerts are off: /alerts set channel:… turns them on.',
  ];
  const open = ctx.health.monitor.openIn(guildId);
  lines.push(open.length === 0 ? 'No open incidents.' : `Open incidents (${open.length}):`);
  for (const incident of open) lines.push(`• ${describeIncident(incident)}`);
  await replyEphemeral(interaction, lines.join('\n'));
}
