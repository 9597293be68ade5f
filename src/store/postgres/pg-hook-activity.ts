import type pg from 'pg';

import type { SignatureFailure } from '../../upstream/signature.js';
import { emptyHookActivity, type HookActivityRecord, type HookActivityStore } from '../hook-activity.js';
import { notify } from './pg-signals.js';

interface ActivityRow {
  last_delivery_at: number | null;
  last_event: string | null;
  refused: number;
  refused_in_a_row: number;
  last_refusal: string | null;
  enabled: boolean | null;
  enabled_at: number | null;
}

/** Hook activity in the `hook_activity` table (an accepted delivery counts inside bridge_accept). */
export class PostgresHookActivity implements HookActivityStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(hookId: string): Promise<HookActivityRecord> {
    const { rows } = await this.pool.query<ActivityRow>('SELECT * FROM hook_activity WHERE hook_id = $1', [hookId]);
    const row = rows[0];
    if (!row) return emptyHookActivity();
    return {
      lastDeliveryAt: row.last_delivery_at ?? undefined,
      lastEvent: row.last_event ?? undefined,
      refused: row.refused,
      refusedInARow: row.refused_in_a_row,
      lastRefusal: (row.last_refusal ?? undefined) as SignatureFailure | undefined,
      state: row.enabled === null ? undefined : { enabled: row.enabled, at: row.enabled_at ?? 0 },
    };
  }

  async recordAccepted(hookId: string, event: string, at: number): Promise<void> {
    await this.pool.query(
      `WITH counted AS (
         INSERT INTO hook_activity (hook_id, last_delivery_at, last_event, refused_in_a_row) VALUES ($1, $2, $3, 0)
         ON CONFLICT (hook_id) DO UPDATE SET last_delivery_at = EXCLUDED.last_delivery_at,
           last_event = EXCLUDED.last_event, refused_in_a_row = 0)
       SELECT pg_notify('bridge', $4)`,
      [hookId, at, event, JSON.stringify({ kind: 'hook-outcome', hookId, outcome: { ok: true, event, at } })],
    );
  }

  async recordRefused(hookId: string, reason: SignatureFailure, at: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO hook_activity (hook_id, refused, refused_in_a_row, last_refusal) VALUES ($1, 1, 1, $2)
       ON CONFLICT (hook_id) DO UPDATE SET refused = hook_activity.refused + 1,
         refused_in_a_row = hook_activity.refused_in_a_row + 1, last_refusal = EXCLUDED.last_refusal`,
      [hookId, reason],
    );
    await notify(this.pool, { kind: 'hook-outcome', hookId, outcome: { ok: false, reason, at } });
  }

  async recordState(hookId: string, enabled: boolean, at: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO hook_activity (hook_id, enabled, enabled_at) VALUES ($1, $2, $3)
       ON CONFLICT (hook_id) DO UPDATE SET enabled = EXCLUDED.enabled, enabled_at = EXCLUDED.enabled_at`,
      [hookId, enabled, at],
    );
  }

  async forget(hookId: string): Promise<void> {
    await this.pool.query('DELETE FROM hook_activity WHERE hook_id = $1', [hookId]);
  }
}
