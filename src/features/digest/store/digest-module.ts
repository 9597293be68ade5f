import type { StoreModule } from '../../../store/store-module.js';
import { DIGEST_MIGRATIONS } from './migrations/index.js';
import { DIGEST_TABLES, SqlDigests } from './sql-digests.js';

/**
 * The quotas' and the weekly digest's tables in the store (`duty_quota`, `digest_schedule`, `digest_post`).
 * Forgetting a guild deletes its rows (counted as `digestRows`); a guild with quotas or a schedule is known until
 * then.
 */
export const digestModule: StoreModule<SqlDigests> = {
  name: 'digest',
  migrations: DIGEST_MIGRATIONS,
  forgetGuild: DIGEST_TABLES.map(({ table }) => ({
    sql: `DELETE FROM ${table} WHERE guild_id = ?`,
    counted: 'digestRows',
  })),
  keptGuilds: ['SELECT guild_id FROM duty_quota', 'SELECT guild_id FROM digest_schedule'],
  copied: 'rows of quotas and digests',
  copy: (from, to) => from.rows.copyInto(to.rows),
  open: ({ dialect, runner }) => new SqlDigests(dialect, runner),
};
