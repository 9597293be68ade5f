import type { REST } from 'discord.js';

/**
 * Sets this process's share of the bot's global requests a second in @discordjs/rest, counted in its current
 * second too, as the send pacer counts its own (src/feed/send-pacer.ts). @discordjs/rest reads
 * `globalRequestsPerSecond` only when a second starts: a process that took a dead one's partitions would have its
 * sends held at its old share for up to a second, though the pacer let them go.
 */
export function setGlobalRateShare(rest: REST, perSecond: number): void {
  const previous = rest.options.globalRequestsPerSecond;
  rest.options.globalRequestsPerSecond = perSecond;
  // A second is running while its reset is ahead (@discordjs/rest starts the next one at the first request after).
  if (rest.globalReset > Date.now()) {
    rest.globalRemaining = Math.max(0, rest.globalRemaining + perSecond - previous);
  }
}
