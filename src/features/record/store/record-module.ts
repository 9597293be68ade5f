import type { StoreModule } from '../../../store/store-module.js';
import { RECORD_TABLE_KEYS } from './community-record.js';
import { RECORD_MIGRATIONS } from './migrations/index.js';
import { RECORD_PERSON_ROWS } from './record-person-rows.js';
import { SqlCommunityRecord } from './sql-community-record.js';

/** Deliveries merged at a time before the copy: a pass reads this many. */
const MERGED_PAGE = 1_000;

/**
 * The community record's tables in the store: every case, shift, session and modcall of a guild (record_*),
 * merged by the record's writer from the deliveries the kernel keeps unrecorded. Forgetting a guild deletes its
 * record (counted as `recordRows`); a guild with a record is known until then.
 */
export const recordModule: StoreModule<SqlCommunityRecord> = {
  name: 'record',
  migrations: RECORD_MIGRATIONS,
  forgetGuild: Object.keys(RECORD_TABLE_KEYS).map((table) => ({
    sql: `DELETE FROM ${table} WHERE guild_id = ?`,
    counted: 'recordRows',
  })),
  personRows: RECORD_PERSON_ROWS,
  keptGuilds: ['SELECT guild_id FROM record_guild'],
  copied: 'rows of the community record',
  copy: copyRecord,
  open: ({ dialect, runner, setAside, clock }) => new SqlCommunityRecord(dialect, runner, setAside, clock),
};

/**
 * The community record, table by table a page at a time. The source's record updates not merged yet are merged
 * first (its deliveries are copied without them): what the bot received before the move is in the copy. Those the
 * writer set aside are tried once more; one that fails again stays out of the copy (its row in /status too).
 */
async function copyRecord(from: SqlCommunityRecord, to: SqlCommunityRecord): Promise<number> {
  for (;;) {
    const { recorded, skipped, setAside, givenUp } = await from.recordPending(MERGED_PAGE);
    if (recorded + skipped + setAside + givenUp < MERGED_PAGE) break;
  }
  await from.setAside.retryNow(Date.now(), 'record-writer');
  for (;;) {
    const { recorded, skipped, setAside, givenUp } = await from.retrySetAside(MERGED_PAGE);
    // One that fails again is due only after a backoff: the pass after the last due one finds none.
    if (recorded + skipped + setAside + givenUp === 0) break;
  }
  return from.rows.copyInto(to.rows);
}
