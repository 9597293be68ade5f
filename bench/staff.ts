import type { BenchGroup } from './group.js';
import { withPostgresCluster } from './lib/postgres.js';
import { log } from './lib/report.js';
import { measureStaffActivity, STAFF_ACTIVITY_FIGURES } from './staff-activity.js';
import {
  HISTORY_LIMIT_MS,
  measureStaffHistoryPostgres,
  measureStaffHistorySqlite,
  STAFF_HISTORY_FIGURES,
} from './staff-history.js';

/**
 * `npm run bench -- staff`: what the staff lifecycle's commands cost on a busy guild's record, on both engines.
 * Each command's measurement is a file of its own (staff-history.ts: staff.history_p99_ms, ≤ 50 ms;
 * staff-activity.ts: staff.activity_p99_ms, ≤ 200 ms).
 */
export const staffGroup: BenchGroup = {
  name: 'staff',
  figures: [...STAFF_HISTORY_FIGURES, ...STAFF_ACTIVITY_FIGURES],
  async run(figures) {
    log(
      `staff: /staff history of a member with five years of activity (limit ${HISTORY_LIMIT_MS} ms); SQLite, then PostgreSQL`,
    );
    await measureStaffHistorySqlite(figures);
    await withPostgresCluster(async (cluster) => {
      log(`  throwaway PostgreSQL cluster on 127.0.0.1:${cluster.port} (fsync off, synchronous_commit on)`);
      await measureStaffHistoryPostgres(cluster, figures);
    });
    await measureStaffActivity(figures);
  },
};
