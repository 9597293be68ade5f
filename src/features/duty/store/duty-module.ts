import type { StoreModule } from '../../../store/store-module.js';
import { DUTY_PERSON_ROWS } from './duty-person-rows.js';
import type { DutyStore } from './duty-store.js';
import { DUTY_MIGRATIONS } from './migrations/index.js';
import { SqlDutyStore } from './sql-duty-store.js';

/**
 * The duty feature's tables in the store: each guild's /duty choices (`duty_guild`) and the members the bot gave
 * the on-duty role to (`duty_role_holder`). Forgetting a guild deletes both (counted as `dutySettings` and
 * `dutyRoleHolders`); a guild with either is known until then.
 */
export const dutyModule: StoreModule<DutyStore> = {
  name: 'duty',
  migrations: DUTY_MIGRATIONS,
  forgetGuild: [
    { sql: 'DELETE FROM duty_guild WHERE guild_id = ?', counted: 'dutySettings' },
    { sql: 'DELETE FROM duty_role_holder WHERE guild_id = ?', counted: 'dutyRoleHolders' },
  ],
  personRows: DUTY_PERSON_ROWS,
  keptGuilds: ['SELECT guild_id FROM duty_guild', 'SELECT guild_id FROM duty_role_holder'],
  copied: "guilds' /duty settings",
  copy: copyDuty,
  open: ({ dialect, runner }) => new SqlDutyStore(dialect, runner),
};

/**
 * Each guild's /duty choices; the board's message too, so the copy edits it rather than posting another, the
 * members holding the on-duty role because of the bot, so the copy takes it back from them, and the coverage
 * guard's minimum with since when the guild is short, so its wait is not started anew. How many guilds.
 */
async function copyDuty(from: DutyStore, to: DutyStore): Promise<number> {
  const configured = await from.listConfigured();
  for (const settings of configured) {
    await to.setBoardChannel(settings.guildId, settings.boardChannelId);
    if (settings.boardChannelId !== null && settings.boardMessageId !== null) {
      await to.setBoardMessage(settings.guildId, settings.boardChannelId, settings.boardMessageId);
    }
    await to.setRole(settings.guildId, settings.roleId, settings.roleSetBy);
    for (const holder of await from.roleHoldersOf(settings.guildId)) {
      await to.noteRoleHolder(settings.guildId, holder);
    }
  }
  const guarded = await from.listGuarded();
  for (const coverage of guarded) {
    await to.setMinimum(coverage.guildId, coverage.minimum);
    await to.setUncoveredSince(coverage.guildId, coverage.uncoveredSince);
  }
  return new Set([...configured, ...guarded].map((settings) => settings.guildId)).size;
}
