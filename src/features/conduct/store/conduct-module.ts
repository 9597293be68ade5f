import type { StoreModule } from '../../../store/store-module.js';
import { CONDUCT_PERSON_ROWS } from './conduct-person-rows.js';
import type { ConductStore } from './conduct-store.js';
import { CONDUCT_MIGRATIONS } from './migrations/index.js';
import { SqlConductStore } from './sql-conduct-store.js';

/** Findings copied per guild at most (a guild's findings of its retention are far fewer). */
const COPIED_FINDINGS = 100_000;

/**
 * The conduct guard's tables in the store: each guild's /conduct choices (`conduct_guild`), what the guard has
 * still to judge (`conduct_due`) and what it found, with each alert's message (`conduct_finding`). Forgetting a
 * guild deletes all three (counted as `conductSettings`, `conductDue`, `conductFindings`); a guild with settings or
 * findings is known until then.
 */
export const conductModule: StoreModule<ConductStore> = {
  name: 'conduct',
  migrations: CONDUCT_MIGRATIONS,
  forgetGuild: [
    { sql: 'DELETE FROM conduct_guild WHERE guild_id = ?', counted: 'conductSettings' },
    { sql: 'DELETE FROM conduct_due WHERE guild_id = ?', counted: 'conductDue' },
    { sql: 'DELETE FROM conduct_finding WHERE guild_id = ?', counted: 'conductFindings' },
  ],
  personRows: CONDUCT_PERSON_ROWS,
  keptGuilds: ['SELECT guild_id FROM conduct_guild', 'SELECT guild_id FROM conduct_finding'],
  copied: "guilds' /conduct settings and findings",
  copy: copyConduct,
  open: ({ dialect, runner }) => new SqlConductStore(dialect, runner),
};

/**
 * Each guild's settings and its findings with their alerts' messages (so the copy edits an alert rather than
 * posting it again). What is due is not copied: the record's copy is merged anew and judged by its writer's guard
 * only for what it merges later. How many guilds.
 */
async function copyConduct(from: ConductStore, to: ConductStore): Promise<number> {
  const settings = await from.listSettings();
  for (const guild of settings) {
    await to.setChannel(guild.guildId, guild.channelId);
    await to.setRole(guild.guildId, guild.roleId);
    await to.setRules(guild.guildId, guild.rules);
    for (const finding of await from.findingsOf(guild.guildId, COPIED_FINDINGS)) await to.putFinding(finding);
  }
  return settings.length;
}
