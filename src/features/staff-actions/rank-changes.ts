import { Routes, type GuildMember } from 'discord.js';

import { UserFacingError } from '../../base/errors.js';
import { checkRoleGrant } from '../../discord/check-role-grant.js';
import { describeDiscordError } from '../../discord/posting/classify-discord-error.js';
import type { StaffActionContext } from './deps.js';
import { postStaffCard } from './post-staff-card.js';
import { renderPromotionCard } from './staff-cards.js';
import { fetchTarget, refuseTarget, requireStaffManager } from './staff-manager.js';
import type { PromotionDirection } from './store/staff-actions-store.js';

/** What a rank role is for, in the role rules' refusals ("the rank role"). */
export const RANK_ROLE = 'rank role';

/** /staff promote|demote as typed: the interaction's id makes it once. */
export interface RankChangeRequest {
  guildId: string;
  requestId: string;
  managerId: string;
  memberId: string;
  direction: PromotionDirection;
  toRoleId: string;
  reason: string | null;
}

/**
 * Moves a member to another rank of the ladder: every check made against Discord now, right before the change
 * (the staff-manager role; a member below the manager; the new rank above (promote) or below (demote) theirs; the
 * new rank role and every rank role taken from them roles the manager could give and take themselves, and the bot
 * too). The promotion is written as asked, then the roles are changed; once Discord made the change it is done,
 * its card posted. A change Discord refuses is undone as far as it went and nothing of it is kept.
 * @throws UserFacingError for a refusal (Discord's too), in plain words
 */
export async function changeRank(ctx: StaffActionContext, request: RankChangeRequest): Promise<string> {
  const { guildId } = request;
  // The same interaction delivered again (another process, a replay) answers what the first one did.
  const earlier = await ctx.staffActions.promotionOf(guildId, request.requestId);
  if (earlier && earlier.doneAt !== null) return `Already done: <@${earlier.memberId}> is <@&${earlier.toRoleId}>.`;
  const ladder = await ctx.staffActions.ranksOf(guildId);
  if (ladder.length === 0)
    throw new UserFacingError('There is no rank ladder yet: an admin sets one with /staff ranks.');
  const toPosition = ladder.indexOf(request.toRoleId);
  if (toPosition < 0) {
    throw new UserFacingError(`<@&${request.toRoleId}> is not a rank of the ladder (/staff ranks shows it).`);
  }
  const settings = await ctx.staffActions.settingsOf(guildId);
  const { guild, manager } = await requireStaffManager(ctx.client, guildId, request.managerId, settings);
  const target = await fetchTarget(guild, request.memberId);
  const refusal = refuseTarget({ guild, manager, target });
  if (refusal !== null) throw new UserFacingError(`${refusal} Nothing was changed.`);
  const held = ladder.filter((roleId) => target.roles.cache.has(roleId));
  const fromRoleId = held.at(-1) ?? null;
  const fromPosition = fromRoleId === null ? -1 : ladder.indexOf(fromRoleId);
  refuseDirection(request, fromRoleId, fromPosition, toPosition);
  const taken = held.filter((roleId) => roleId !== request.toRoleId);
  for (const roleId of [request.toRoleId, ...taken]) {
    const roleRefusal = await checkRoleGrant(
      ctx.client,
      guildId,
      roleId,
      { id: manager.id, addressed: true },
      RANK_ROLE,
    );
    if (roleRefusal !== null) throw new UserFacingError(`${roleRefusal} Nothing was changed.`);
  }
  const { promotion, created } = await ctx.staffActions.askPromotion({
    guildId,
    requestId: request.requestId,
    memberId: request.memberId,
    direction: request.direction,
    fromRoleId,
    toRoleId: request.toRoleId,
    reason: request.reason?.trim() || null,
    givenBy: manager.id,
    askedAt: ctx.clock(),
  });
  if (!created && promotion.doneAt !== null)
    return `Already done: <@${promotion.memberId}> is <@&${promotion.toRoleId}>.`;
  const refused = await swapRoles(ctx, target, request, taken);
  if (refused !== null) {
    await ctx.staffActions.dropPromotion(guildId, request.requestId);
    throw new UserFacingError(
      `Discord refused to change <@${request.memberId}>'s roles (${refused}): nothing was changed or recorded.`,
    );
  }
  const doneAt = ctx.clock();
  await ctx.staffActions.confirmPromotion(guildId, request.requestId, doneAt);
  const done = { ...promotion, doneAt };
  const word = request.direction === 'promote' ? 'Promoted' : 'Demoted';
  let cardNote = ' No staff-log channel is set, so no card was posted.';
  if (settings.logChannelId !== null) {
    const posted = await postStaffCard(
      ctx,
      settings.logChannelId,
      renderPromotionCard(done),
      ['promotion', guildId, request.requestId],
      done.askedAt,
    );
    if ('failed' in posted) {
      cardNote = ` Its card could not be posted in <#${settings.logChannelId}> (${posted.failed}).`;
    } else {
      await ctx.staffActions.notePromotionCard(guildId, request.requestId, posted.card);
      cardNote = ` Its card is in <#${settings.logChannelId}>.`;
    }
  }
  return `${word} <@${request.memberId}> to <@&${request.toRoleId}>.${cardNote}`;
}

function refuseDirection(
  request: RankChangeRequest,
  fromRoleId: string | null,
  fromPosition: number,
  toPosition: number,
): void {
  const from = fromRoleId === null ? 'no rank' : `<@&${fromRoleId}>`;
  if (request.direction === 'promote' && toPosition <= fromPosition) {
    throw new UserFacingError(
      `<@${request.memberId}> is ${from}: <@&${request.toRoleId}> is not above it, so that is no promotion (use /staff demote).`,
    );
  }
  if (request.direction === 'demote' && (fromRoleId === null || toPosition >= fromPosition)) {
    throw new UserFacingError(
      `<@${request.memberId}> is ${from}: <@&${request.toRoleId}> is not below it, so that is no demotion (use /staff promote).`,
    );
  }
}

/**
 * Gives the new rank role, then takes the others of the ladder; when Discord refuses a step, the steps made are
 * undone (as far as Discord lets) and what it said is answered. Null when every step was made.
 */
async function swapRoles(
  ctx: StaffActionContext,
  target: GuildMember,
  request: RankChangeRequest,
  taken: readonly string[],
): Promise<string | null> {
  const { guildId, memberId, toRoleId } = request;
  const reason = `${request.direction === 'promote' ? 'promoted' : 'demoted'} by ${request.managerId} (/staff ${request.direction})`;
  const route = (roleId: string) => Routes.guildMemberRole(guildId, memberId, roleId);
  const hadNew = target.roles.cache.has(toRoleId);
  const removed: string[] = [];
  try {
    if (!hadNew) await ctx.client.rest.put(route(toRoleId), { reason });
    for (const roleId of taken) {
      await ctx.client.rest.delete(route(roleId), { reason });
      removed.push(roleId);
    }
    return null;
  } catch (error) {
    const said = describeDiscordError(error);
    ctx.logger.warn({ guildId, memberId, reason: said }, 'a rank change was refused; undoing it');
    const undo = `undoing a refused rank change (/staff ${request.direction})`;
    await Promise.allSettled([
      ...(hadNew ? [] : [ctx.client.rest.delete(route(toRoleId), { reason: undo })]),
      ...removed.map((roleId) => ctx.client.rest.put(route(roleId), { reason: undo })),
    ]);
    return said;
  }
}
