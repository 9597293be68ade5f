/**
 * Snowflake ids shaped like Discord's, so discord.js derives sensible creation times from them.
 */

/** Discord's epoch: the first second of 2015, in ms since the Unix epoch. */
export const DISCORD_EPOCH = 1_420_070_400_000n;

/**
 * Makes a generator of increasing snowflakes. Each id encodes the current time (Discord's epoch) and a
 * 12-bit counter; the time never goes backwards, so ids made in one millisecond stay ordered.
 */
export function createSnowflakeGenerator(now: () => number = Date.now): () => string {
  let lastMs = 0n;
  let increment = 0n;
  return () => {
    let ms = BigInt(now()) - DISCORD_EPOCH;
    if (ms < lastMs) ms = lastMs;
    if (ms === lastMs) {
      increment += 1n;
      // 4096 ids in one millisecond: borrow the next millisecond rather than repeat an id.
      if (increment > 0xfffn) {
        ms += 1n;
        increment = 0n;
      }
    } else {
      increment = 0n;
    }
    lastMs = ms;
    // Worker 1, process 1, as Discord's own ids carry non-zero worker bits.
    return ((ms << 22n) | (1n << 17n) | (1n << 12n) | increment).toString();
  };
}

/** The creation time (ms since the Unix epoch) encoded in a snowflake. */
export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}
