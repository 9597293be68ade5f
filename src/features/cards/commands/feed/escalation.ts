import type { ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import type { CardsDeps } from '../../feature.js';

/**
 * The escalation options of /feed mention (event:modcall only): `escalate-after` minutes and `escalate-role`;
 * `escalate-after:0` turns escalation off. Returns what to tell the admin, or undefined when neither was given.
 */
export async function applyEscalation(
  interaction: ChatInputCommandInteraction,
  ctx: Pick<CardsDeps, 'cards'>,
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

/** Minutes the staff on shift have before a modcall's role is pinged, when on-duty-first is set without role-after. */
export const DEFAULT_ROLE_AFTER_MINUTES = 3;

/**
 * The on-duty-first options of /feed mention (event:modcall only): `on-duty-first:true` pings the staff on shift
 * (at most 10) with a new modcall and its role only after `role-after` minutes unclaimed; `false` turns it off.
 * Returns what to tell the admin, or undefined when neither was given.
 */
export async function applyOnDutyFirst(
  interaction: ChatInputCommandInteraction,
  ctx: Pick<CardsDeps, 'cards'>,
  guildId: string,
  event: string,
): Promise<string | undefined> {
  const on = interaction.options.getBoolean('on-duty-first');
  const after = interaction.options.getInteger('role-after');
  if (on === null && after === null) return undefined;
  if (event !== 'modcall') throw new UserFacingError('on-duty-first is for modcalls only: use event:modcall.');
  if (on === false) {
    await ctx.cards.saveOnDutyFirst(guildId, null);
    return 'Modcalls ping their role at once again.';
  }
  const roleAfterMinutes =
    after ?? (await ctx.cards.onDutyFirst(guildId))?.roleAfterMinutes ?? DEFAULT_ROLE_AFTER_MINUTES;
  await ctx.cards.saveOnDutyFirst(guildId, { roleAfterMinutes });
  return (
    `A new modcall pings the staff on shift (at most 10; its role at once when nobody is on shift), ` +
    `and its role ${roleAfterMinutes} min later if nobody claimed it.`
  );
}
