import type { GuildFeedStatus } from '../../store/deliveries.js';

/** How many entries a server has held and why, in one line for its alert. */
export function describeHeld(status: GuildFeedStatus): { count: number; detail: string } {
  const unrouted = Object.entries(status.unrouted).filter(([, count]) => count > 0);
  const unroutedCount = unrouted.reduce((sum, [, count]) => sum + count, 0);
  const parts: string[] = [];
  if (status.heldRefused > 0) parts.push(`${status.heldRefused} refused by Discord`);
  if (status.heldBroken > 0) parts.push(`${status.heldBroken} for a channel Discord refuses`);
  if (unroutedCount > 0) {
    const events = unrouted.map(([event, count]) => `${event} ×${count}`).join(', ');
    parts.push(`${unroutedCount} with no channel set (${events}: /feed set or /feed default)`);
  }
  return { count: status.heldRefused + status.heldBroken + unroutedCount, detail: parts.join('; ') };
}
