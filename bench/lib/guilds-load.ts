import {
  guildIdsOverShards,
  realisticGuildSpec,
  type AddedGuild,
  type FakeDiscord,
} from '../../fakes/discord/index.js';

/**
 * The many-guilds load of the `guilds` and `guilds-spread` groups, from the same variables: how many realistic
 * guilds, over how many shards, at which `max_concurrency`, and what Discord's identify pacing alone costs.
 */

/** BENCH_GUILDS: how many guilds (20,000 by default: a service-wide deployment's count). */
export const GUILDS = Number(process.env.BENCH_GUILDS ?? 20_000);
/** BENCH_GUILDS_SHARDS: Discord recommends about one shard per 1,000 guilds. */
export const SHARDS = Number(process.env.BENCH_GUILDS_SHARDS ?? Math.max(1, Math.ceil(GUILDS / 1_000)));
/**
 * BENCH_GUILDS_MAX_CONCURRENCY: `max_concurrency` of `GET /gateway/bot`, 1 by default as Discord gives most bots:
 * discord.js then identifies one shard every 5 s.
 */
export const MAX_CONCURRENCY = Number(process.env.BENCH_GUILDS_MAX_CONCURRENCY ?? 1);
/** Discord's wait between two identifies of one bucket. */
export const IDENTIFY_SPACING_MS = 5_000;

/** Throws when the variables are not whole numbers ≥ 1 (a typo would otherwise measure something else). */
export function checkGuildsLoad(): void {
  for (const [name, value] of [
    ['BENCH_GUILDS', GUILDS],
    ['BENCH_GUILDS_SHARDS', SHARDS],
    ['BENCH_GUILDS_MAX_CONCURRENCY', MAX_CONCURRENCY],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1 (${value})`);
  }
}

/** Discord's pacing alone for `shards` identified in turn: the last bucket's shards each wait 5 s after the one before. */
export function identifyPacingMs(shards = SHARDS): number {
  return (Math.ceil(shards / MAX_CONCURRENCY) - 1) * IDENTIFY_SPACING_MS;
}

/** Adds `count` realistic guilds to the fake, spread evenly over SHARDS (guild `i` on shard `i % SHARDS`). */
export function addRealisticGuilds(fake: FakeDiscord, count: number): AddedGuild[] {
  return guildIdsOverShards(count, SHARDS).map((id, index) =>
    fake.addGuild(realisticGuildSpec(id, index, fake.botUserId)),
  );
}
