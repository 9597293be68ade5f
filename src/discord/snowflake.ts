/**
 * A Discord id: 17 to 20 digits (snowflakes have had 17 since early 2015 and reach 20 around 2090), no leading
 * zero (Discord's schema refuses one in allowed_mentions).
 */
const SNOWFLAKE = /^[1-9][0-9]{16,19}$/;

/** True when `id` looks like a Discord snowflake: a mention of it renders, and Discord's routes accept it. */
export function isSnowflake(id: string): boolean {
  return SNOWFLAKE.test(id);
}

/** Discord's epoch: a snowflake counts milliseconds from the first second of 2015. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/**
 * When Discord made the object `id` names (ms since the Unix epoch, on Discord's clock); undefined for what is not a
 * snowflake.
 */
export function snowflakeTime(id: string): number | undefined {
  return isSnowflake(id) ? Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS) : undefined;
}

/**
 * The gateway shard that carries a guild's events and commands, by Discord's formula: `(guild_id >> 22) % shards`.
 * Direct messages come on shard 0.
 */
export function shardOfGuild(guildId: string | null | undefined, shards: number): number {
  if (!guildId || !/^[0-9]+$/.test(guildId)) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(shards));
}
