import type { StoreModule } from '../../../store/store-module.js';
import { LEAVE_PERSON_ROWS } from './leave-person-rows.js';
import { LEAVE_MIGRATIONS } from './migrations/index.js';
import { LEAVE_TABLES, SqlLeaveStore } from './sql-leave-store.js';

/**
 * Leave's tables in the store (`leave_settings`, `leave_request`, `leave_role_holder`, `leave_reduced_quota`). Forgetting a guild deletes
 * its rows (counted as `leaveRows`); a guild with settings or requests is known until then.
 */
export const leaveModule: StoreModule<SqlLeaveStore> = {
  name: 'leave',
  migrations: LEAVE_MIGRATIONS,
  forgetGuild: LEAVE_TABLES.map(({ table }) => ({
    sql: `DELETE FROM ${table} WHERE guild_id = ?`,
    counted: 'leaveRows',
  })),
  personRows: LEAVE_PERSON_ROWS,
  keptGuilds: ['SELECT guild_id FROM leave_settings', 'SELECT guild_id FROM leave_request'],
  copied: 'rows of leave',
  copy: (from, to) => from.rows.copyInto(to.rows),
  open: ({ dialect, runner }) => new SqlLeaveStore(dialect, runner),
};
