import type { Database, Statement } from 'better-sqlite3';

import type { SignatureFailure } from '../../upstream/signature.js';
import type { HookActivity, HookActivityStore } from '../hook-activity.js';
import { ACTIVITY, toActivityColumns, toHookActivity } from '../hook-rows.js';
import { sqliteDialect as d } from '../sql-dialect.js';
import type { RowOf } from '../table-columns.js';
import { prepare } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

/** SQL that records an accepted delivery of a hook; the delivery queue runs it in the accept's transaction. */
export const RECORD_ACCEPTED_SQL = `
  INSERT INTO hook_activity (hook_id, last_delivery_at, last_event, refused_in_a_row) VALUES (?, ?, ?, 0)
  ON CONFLICT (hook_id) DO UPDATE SET last_delivery_at = excluded.last_delivery_at,
    last_event = excluded.last_event, refused_in_a_row = 0`;

/** Hook activity in the `hook_activity` table. */
export class SqliteHookActivity implements HookActivityStore {
  private readonly byId: Statement<[string], RowOf<typeof ACTIVITY, 'sqlite'>>;
  private readonly accepted: Statement<[string, number, string]>;
  private readonly refused: Statement<[string, string]>;
  private readonly state: Statement<[string, number, number]>;
  private readonly remove: Statement<[string]>;
  private readonly hookStored: Statement<[string], { found: number }>;

  constructor(
    private readonly db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.byId = prepare(db, d.select(ACTIVITY).from<[string]>('hook_activity WHERE hook_id = ?'));
    this.accepted = db.prepare(RECORD_ACCEPTED_SQL);
    this.refused = db.prepare(
      `INSERT INTO hook_activity (hook_id, refused, refused_in_a_row, last_refusal) VALUES (?, 1, 1, ?)
       ON CONFLICT (hook_id) DO UPDATE SET refused = refused + 1, refused_in_a_row = refused_in_a_row + 1,
         last_refusal = excluded.last_refusal`,
    );
    this.state = db.prepare(
      `INSERT INTO hook_activity (hook_id, enabled, enabled_at) VALUES (?, ?, ?)
       ON CONFLICT (hook_id) DO UPDATE SET enabled = excluded.enabled, enabled_at = excluded.enabled_at`,
    );
    this.remove = db.prepare('DELETE FROM hook_activity WHERE hook_id = ?');
    this.hookStored = db.prepare('SELECT 1 AS found FROM hook WHERE hook_id = ?');
  }

  get(hookId: string): Promise<HookActivity> {
    const row = this.byId.get(hookId);
    return Promise.resolve(toHookActivity(row));
  }

  noteAccepted(hookId: string, event: string, at: number): Promise<boolean> {
    return this.writes.run((tx) => {
      if (!this.hookStored.get(hookId)) return false;
      this.accepted.run(hookId, at, event);
      tx.afterCommit({ kind: 'hook-outcome', hookId, outcome: { ok: true, event, at } });
      return true;
    });
  }

  noteRefused(hookId: string, reason: SignatureFailure, at: number): Promise<void> {
    return this.writes.run((tx) => {
      this.refused.run(hookId, reason);
      tx.afterCommit({ kind: 'hook-outcome', hookId, outcome: { ok: false, reason, at } });
    });
  }

  noteState(hookId: string, enabled: boolean, at: number): Promise<void> {
    return this.writes.run((tx) => {
      this.state.run(hookId, enabled ? 1 : 0, at);
      tx.afterCommit({ kind: 'hook-state', hookId, enabled });
    });
  }

  restore(hookId: string, activity: HookActivity): Promise<void> {
    // SQLite has no boolean: `enabled` is stored 0/1.
    const columns = toActivityColumns(activity).map((value) => (typeof value === 'boolean' ? Number(value) : value));
    return this.writes.run(() => {
      this.remove.run(hookId);
      this.db
        .prepare(`INSERT INTO hook_activity (hook_id, ${ACTIVITY.text}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(hookId, ...columns);
    });
  }

  forget(hookId: string): Promise<void> {
    return this.writes.run(() => {
      this.remove.run(hookId);
    });
  }
}
