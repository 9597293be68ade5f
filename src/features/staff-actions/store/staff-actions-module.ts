import type { StoreModule } from '../../../store/store-module.js';
import { STAFF_ACTIONS_MIGRATIONS } from './migrations/index.js';
import { SqlStaffActionsStore } from './sql-staff-actions-store.js';
import { STAFF_ACTIONS_PERSON_ROWS } from './staff-actions-person-rows.js';
import type { StaffActionsStore } from './staff-actions-store.js';

/**
 * The staff actions' tables in the store: each guild's /staff setup and rank ladder (`staff_guild`, `staff_rank`),
 * its infractions and promotions (`staff_infraction`, `staff_promotion`). Forgetting a guild deletes all four
 * (counted as `staffSettings`, `staffInfractions`, `staffPromotions`); a guild with any is known until then.
 */
export const staffActionsModule: StoreModule<StaffActionsStore> = {
  name: 'staff-actions',
  migrations: STAFF_ACTIONS_MIGRATIONS,
  forgetGuild: [
    { sql: 'DELETE FROM staff_guild WHERE guild_id = ?', counted: 'staffSettings' },
    { sql: 'DELETE FROM staff_rank WHERE guild_id = ?' },
    { sql: 'DELETE FROM staff_infraction WHERE guild_id = ?', counted: 'staffInfractions' },
    { sql: 'DELETE FROM staff_promotion WHERE guild_id = ?', counted: 'staffPromotions' },
  ],
  personRows: STAFF_ACTIONS_PERSON_ROWS,
  keptGuilds: [
    'SELECT guild_id FROM staff_guild',
    'SELECT guild_id FROM staff_rank',
    'SELECT guild_id FROM staff_infraction',
    'SELECT guild_id FROM staff_promotion',
  ],
  copied: "guilds' staff actions",
  copy: copyStaffActions,
  open: ({ dialect, runner }) => new SqlStaffActionsStore(dialect, runner),
};

/** Each guild's settings, ladder, infractions (numbers, voidings and cards kept) and promotions. How many guilds. */
async function copyStaffActions(from: StaffActionsStore, to: StaffActionsStore): Promise<number> {
  const guilds = await from.keptGuilds();
  for (const guildId of guilds) await to.restoreRows(await from.rowsOf(guildId));
  return guilds.length;
}
