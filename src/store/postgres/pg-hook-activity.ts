import type pg from 'pg';

import type { SignatureFailure } from '../../upstream/signature.js';
import type { HookActivity, HookActivityStore } from '../hook-activity.js';
import { ACTIVITY, toActivityColumns, toHookActivity } from '../hook-rows.js';
import { postgresDialect as d } from '../sql-dialect.js';
import { notify } from './pg-signals.js';
import { rowsOf } from './pg-sql.js';

const BY_ID = d.select(ACTIVITY).from<[string]>('hook_activity WHERE hook_id = ?');

/** Hook activity in the `hook_activity` table (an accepted delivery counts inside bridge_accept). */
export class PostgresHookActivity implements HookActivityStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(hookId: string): Promise<HookActivity> {
    const [row] = await rowsOf(this.pool, BY_ID, [hookId]);
    return toHookActivity(row);
  }

  async noteAccepted(hookId: string, event: string, at: number): Promise<boolean> {
    // The hook's row locked FOR KEY SHARE, which a removal's FOR UPDATE conflicts with: a removal under way is
    // waited for, and a removed hook counts nothing. A ping is rare: the lock's write costs nothing here.
    const { rows } = await this.pool.query(
      `WITH live AS (SELECT hook_id FROM hook WHERE hook_id = $1 FOR KEY SHARE),
       counted AS (
         INSERT INTO hook_activity (hook_id, last_delivery_at, last_event, refused_in_a_row)
           SELECT hook_id, $2, $3, 0 FROM live
         ON CONFLICT (hook_id) DO UPDATE SET last_delivery_at = EXCLUDED.last_delivery_at,
           last_event = EXCLUDED.last_event, refused_in_a_row = 0
         RETURNING hook_id)
       SELECT pg_notify('bridge', $4) FROM counted`,
      [hookId, at, event, JSON.stringify({ kind: 'hook-outcome', hookId, outcome: { ok: true, event, at } })],
    );
    return rows.length > 0;
  }

  async noteRefused(hookId: string, reason: SignatureFailure, at: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO hook_activity (hook_id, refused, refused_in_a_row, last_refusal) VALUES ($1, 1, 1, $2)
       ON CONFLICT (hook_id) DO UPDATE SET refused = hook_activity.refused + 1,
         refused_in_a_row = hook_activity.refused_in_a_row + 1, last_refusal = EXCLUDED.last_refusal`,
      [hookId, reason],
    );
    await notify(this.pool, { kind: 'hook-outcome', hookId, outcome: { ok: false, reason, at } });
  }

  async noteState(hookId: string, enabled: boolean, at: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO hook_activity (hook_id, enabled, enabled_at) VALUES ($1, $2, $3)
       ON CONFLICT (hook_id) DO UPDATE SET enabled = EXCLUDED.enabled, enabled_at = EXCLUDED.enabled_at`,
      [hookId, enabled, at],
    );
    await notify(this.pool, { kind: 'hook-state', hookId, enabled });
  }

  async restore(hookId: string, activity: HookActivity): Promise<void> {
    await this.pool.query(
      `INSERT INTO hook_activity (hook_id, ${ACTIVITY.text}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (hook_id) DO UPDATE SET (${ACTIVITY.text}) = (EXCLUDED.last_delivery_at, EXCLUDED.last_event,
         EXCLUDED.refused, EXCLUDED.refused_in_a_row, EXCLUDED.last_refusal, EXCLUDED.enabled, EXCLUDED.enabled_at)`,
      [hookId, ...toActivityColumns(activity)],
    );
  }

  async forget(hookId: string): Promise<void> {
    await this.pool.query('DELETE FROM hook_activity WHERE hook_id = $1', [hookId]);
  }
}
