/**
 * A Discord id: 17 to 20 digits (snowflakes have had 17 since early 2015 and reach 20 around 2090), no leading
 * zero (Discord's schema refuses one in allowed_mentions).
 */
const SNOWFLAKE = /^[1-9][0-9]{16,19}$/;

/** True when `id` looks like a Discord snowflake: a mention of it renders, and Discord's routes accept it. */
export function isSnowflake(id: string): boolean {
  return SNOWFLAKE.test(id);
}
