import { UserFacingError } from '../../base/errors.js';
import { checkRoleGrant } from '../../discord/check-role-grant.js';
import type { StaffActionContext } from './deps.js';
import { RANK_ROLE } from './rank-changes.js';

/** The most ranks a ladder holds. */
export const MAX_RANKS = 25;

/**
 * The rank roles typed into /staff ranks (`@Trainee @Moderator …`: role mentions or ids), lowest first.
 * @throws UserFacingError for anything else typed, a role named twice, or too many
 */
export function parseLadder(text: string): string[] {
  const words = text.split(/[\s,]+/).filter((word) => word !== '');
  const roleIds = words.map((word) => {
    const id = /^(?:<@&)?(\d{17,20})>?$/.exec(word)?.[1];
    if (id === undefined)
      throw new UserFacingError(`"${word.slice(0, 40)}" is not a role: mention each rank role, lowest first.`);
    return id;
  });
  if (new Set(roleIds).size !== roleIds.length)
    throw new UserFacingError('A role is named twice: name each rank once.');
  if (roleIds.length > MAX_RANKS) throw new UserFacingError(`A ladder has at most ${MAX_RANKS} ranks.`);
  return roleIds;
}

/**
 * Sets the ladder after checking each role now: one the admin could give themselves, and the bot too (the role
 * rules), so a promotion never stops at a rank nobody may give. Empty: the ladder is cleared.
 * @throws UserFacingError naming the first role refused; nothing is saved then
 */
export async function setLadder(
  ctx: StaffActionContext,
  guildId: string,
  adminId: string,
  roleIds: readonly string[],
): Promise<string> {
  for (const roleId of roleIds) {
    const refusal = await checkRoleGrant(ctx.client, guildId, roleId, { id: adminId, addressed: true }, RANK_ROLE);
    if (refusal !== null) throw new UserFacingError(`${refusal} Nothing was saved.`);
  }
  await ctx.staffActions.setRanks(guildId, roleIds);
  return roleIds.length === 0
    ? 'The rank ladder is cleared: /staff promote and demote wait for a new one.'
    : `The rank ladder, lowest first: ${describeLadder(roleIds)}.`;
}

/** "<@&1> → <@&2> → <@&3>". */
export function describeLadder(roleIds: readonly string[]): string {
  return roleIds.map((roleId) => `<@&${roleId}>`).join(' → ');
}
