import type { ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../src/base/errors.js';
import type { FeedDeps } from '../feed.js';

/**
 * The escalation options of /feed mention (event:modcall only): `escalate-after` minutes and `escalate-role`;
 * `escalate-after:0` turns escalation off. Returns what to tell the admin, or undefined when neither was given.
 */
export async function applyEscalation(
  interaction: ChatInputCommandInteraction,
  ctx: Pick<FeedDeps, 'cards'>,
  guildId: string,
  event: string,
): Promise<string | undefined> {
  const after = interaction.options.getInteger('escalate-after');
  const role = interaction.options.getRole('escalate-role');
  if (after === null && role === null) return undefined;
  if (event !== 'modcall') throw new UserFacingError('Escalation is for modcalls only: use event:modcall.');
  if (after === 0) {
    await ctx.cards.saveEscalation(guildId, null);
    return 'Unclaimed modcalls are no longer escalated.';
  }
  if (after === null || role === null) {
    throw new UserFacingError('Give both escalate-after (minutes) and escalate-role, or escalate-after:0 to stop.');
  }
  if (role.id === guildId) throw new UserFacingError('Choose an escalation role other than @everyone.');
  await ctx.cards.saveEscalation(guildId, { afterMinutes: after, roleId: role.id });
  return `A modcall nobody claims within ${after} min gets one reply that pings <@&${role.id}>.`;
}
