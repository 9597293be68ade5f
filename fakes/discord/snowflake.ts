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

let shardedIds = 0n;

/**
 * A guild id on shard `shardId` of `count` (Discord's `(guild_id >> 22) % count`), made a minute back so it
 * never equals an id the fake makes (its worker bits differ too). Each call gives a new id.
 */
export function guildIdOnShard(shardId: number, count: number, now: () => number = Date.now): string {
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(shardId) || shardId < 0 || shardId >= count) {
    throw new RangeError(`no shard ${shardId} of ${count}`);
  }
  let ms = BigInt(now() - 60_000) - DISCORD_EPOCH;
  ms -= (((ms - BigInt(shardId)) % BigInt(count)) + BigInt(count)) % BigInt(count);
  shardedIds = (shardedIds + 1n) & 0xfffn;
  // Worker 2, process 1: the fake's own ids use worker 1.
  return ((ms << 22n) | (2n << 17n) | (1n << 12n) | shardedIds).toString();
}
