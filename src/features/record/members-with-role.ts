import type { Guild } from 'discord.js';

import type { Standing } from './store/record-queries.js';

/** Members looked up at most, from the top, to fill a leaderboard for one role. */
const MOST_CHECKED = 100;

/**
 * The first `wanted` standings whose member has the role, looking members up one by one from the top (the bot
 * does not ask for the privileged member list). A member who left the server is not shown; past the first
 * {@link MOST_CHECKED} the board stops, and says so.
 */
export async function standingsWithRole(
  guild: Pick<Guild, 'members'>,
  standings: readonly Standing[],
  roleId: string,
  wanted: number,
): Promise<{ shown: Standing[]; cut: boolean }> {
  const shown: Standing[] = [];
  for (const [checked, standing] of standings.entries()) {
    if (shown.length === wanted) return { shown, cut: false };
    if (checked === MOST_CHECKED) return { shown, cut: true };
    const member = await guild.members.fetch(standing.memberId).catch(() => undefined);
    if (member?.roles.cache.has(roleId)) shown.push(standing);
  }
  return { shown, cut: false };
}
