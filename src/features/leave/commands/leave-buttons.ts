import { MessageFlags, type ButtonInteraction } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import { checkRoleGrant } from '../../../discord/check-role-grant.js';
import type { ButtonHandler } from '../../../discord/command.js';
import { APPROVE_BUTTON_ID, DENY_BUTTON_ID, kindName, renderLeaveCard } from '../leave-card.js';
import { dayStamp, lastDayStamp } from '../leave-dates.js';
import { LEAVE_ROLE } from '../leave-job.js';
import { isLeaveManager } from './leave-managers.js';
import type { LeaveCommandDeps } from './leave.js';

/** Approve on a request's card. */
export const approveButton: ButtonHandler<LeaveCommandDeps> = {
  id: APPROVE_BUTTON_ID,
  command: 'leave',
  run: (interaction, ctx, args) => decide(interaction, ctx, args, 'approved'),
};

/** Deny on a request's card. */
export const denyButton: ButtonHandler<LeaveCommandDeps> = {
  id: DENY_BUTTON_ID,
  command: 'leave',
  run: (interaction, ctx, args) => decide(interaction, ctx, args, 'denied'),
};

/**
 * A leave manager's decision. Everything is checked again at the click, from what Discord sends with it and says
 * now: the leave managers' role (or Manage Server), not one's own request, and, for an approval while a leave role
 * is set, that the manager could give that role themselves. Of two managers clicking at once, one decides (the
 * store changes a pending request only). The card shows the decision, and the member is told.
 */
async function decide(
  interaction: ButtonInteraction,
  ctx: LeaveCommandDeps,
  args: string,
  decision: 'approved' | 'denied',
): Promise<void> {
  const guildId = interaction.guildId;
  if (!guildId) throw new UserFacingError('Leave requests work in servers only.');
  const number = Number(args);
  const settings = await ctx.leave.settingsOf(guildId);
  const request = Number.isSafeInteger(number) ? await ctx.leave.requestOf(guildId, number) : undefined;
  if (!request) throw new UserFacingError('This request is no longer kept.');
  if (!isLeaveManager(interaction, settings.managerRoleId)) {
    throw new UserFacingError(
      settings.managerRoleId === null
        ? 'Only members with Manage Server decide leave requests (an admin can choose a role with /leave managers).'
        : `Only members with <@&${settings.managerRoleId}> or Manage Server decide leave requests.`,
    );
  }
  const userId = interaction.user.id;
  if (request.memberId === userId) throw new UserFacingError('Your own request is decided by another leave manager.');
  if (request.state !== 'pending') {
    throw new UserFacingError(`Request #${request.number} was already ${request.state}.`);
  }
  if (decision === 'approved' && settings.roleId !== null) {
    // Approving gives the leave role: only a role the manager could give themselves.
    const refusal = await checkRoleGrant(
      ctx.client,
      guildId,
      settings.roleId,
      { id: userId, addressed: true },
      LEAVE_ROLE,
    );
    if (refusal !== null) throw new UserFacingError(`Nothing was decided. ${refusal}`);
  }
  const now = ctx.clock();
  const decided = await ctx.leave.decide(guildId, request.number, decision, userId, now);
  if (!decided) {
    const current = await ctx.leave.requestOf(guildId, request.number);
    throw new UserFacingError(`Request #${request.number} was already ${current?.state ?? 'removed'}.`);
  }
  const { embeds, components } = renderLeaveCard(decided, now);
  await interaction.update({ embeds, components, allowedMentions: { parse: [] } });
  ctx.leaveChanged(guildId);

  const words = decision === 'approved' ? 'approved' : 'denied';
  const told = await ctx.requesters.tell(
    guildId,
    decided.number,
    decided.memberId,
    `Your ${kindName(decided).toLowerCase()} request #${decided.number} (${dayStamp(decided.startsAt)} to ` +
      `${lastDayStamp(decided.endsAt)}) was ${words} by <@${userId}>.`,
  );
  const how =
    told === 'dm'
      ? 'by direct message'
      : told === 'follow-up'
        ? 'under the request they made'
        : 'nowhere: their direct messages are closed, so tell them yourself';
  await interaction.followUp({
    content: `Request #${decided.number} ${words}. <@${decided.memberId}> was told ${how}.`,
    flags: MessageFlags.Ephemeral,
    allowedMentions: { parse: [] },
  });
}
