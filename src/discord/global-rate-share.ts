import type { REST } from 'discord.js';

/**
 * Sets this process's share of the bot's global requests a second in @discordjs/rest. It counts a second from its
 * first request and reads `globalRequestsPerSecond` only when the next one starts, while the send pacer hands the
 * feed's sends out a part of a second at a time and takes a new share from its next part (src/feed/send-pacer.ts).
 * So a share raised (partitions taken from a dead process) counts in the running second too, or @discordjs/rest
 * would hold the sends the pacer let go for up to a second. A share lowered counts from the next second: the pacer
 * already slowed down.
 */
export function setGlobalRateShare(rest: REST, perSecond: number): void {
  const previous = rest.options.globalRequestsPerSecond;
  rest.options.globalRequestsPerSecond = perSecond;
  // A second is running while its reset is ahead (@discordjs/rest starts the next one at the first request after).
  if (perSecond > previous && rest.globalReset > Date.now()) rest.globalRemaining += perSecond - previous;
}
