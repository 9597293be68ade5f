import type { SqlDialect } from '../../../store/sql-dialect.js';
import { columns, type RowOf } from '../../../store/table-columns.js';

/*
 * The conduct guard's tables' columns and statements, made once per store for either engine (sql-conduct-store.ts
 * runs them).
 */

export const GUILD = columns('conduct_guild', 'guild_id', 'channel_id', 'role_id', 'rules');
const DUE = columns('conduct_due', 'guild_id', 'kind', 'server', 'number', 'noted', 'failures');
export const FINDING = columns(
  'conduct_finding',
  'guild_id',
  'id',
  'rule',
  'subject',
  'opened_at',
  'hits',
  'state',
  'merged_into',
  'acted_by',
  'acted_at',
  'version',
  'synced_version',
  'sync_failures',
  'channel_id',
  'message_id',
  'nonce',
  'written_at',
);
export type FindingRow = RowOf<typeof FINDING>;

/** The findings a judgement may still change: those with cases. */
const LIVE = "state IN ('open', 'acknowledged', 'dismissed')";

export function conductStatements(d: SqlDialect) {
  return {
    settingsOf: d.select(GUILD).from<[string]>('conduct_guild WHERE guild_id = ?'),
    listSettings: d.select(GUILD).from<[]>('conduct_guild ORDER BY guild_id'),
    setChannel: d.sql<never, [string, string | null]>(
      `INSERT INTO conduct_guild (guild_id, channel_id) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id`,
    ),
    setRole: d.sql<never, [string, string | null]>(
      `INSERT INTO conduct_guild (guild_id, role_id) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET role_id = excluded.role_id`,
    ),
    setRules: d.sql<never, [string, string]>(
      `INSERT INTO conduct_guild (guild_id, rules) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET rules = excluded.rules`,
    ),
    // A merge of something already due counts up `noted`: a judgement under way then leaves it due.
    noteDue: d.sql<never, [string, string, string, number, number]>(
      `INSERT INTO conduct_due (guild_id, kind, server, number, noted, failures, try_at) VALUES (?, ?, ?, ?, 1, 0, ?)
       ON CONFLICT (guild_id, kind, server, number) DO UPDATE
         SET noted = conduct_due.noted + 1, failures = 0, try_at = excluded.try_at`,
    ),
    dueItems: d.select(DUE).from<[number, number]>('conduct_due WHERE try_at <= ? ORDER BY try_at LIMIT ?'),
    clearDue: d.sql<never, [string, string, string, number, number]>(
      'DELETE FROM conduct_due WHERE guild_id = ? AND kind = ? AND server = ? AND number = ? AND noted = ?',
    ),
    backOffDue: d.sql<never, [number, string, string, string, number, number]>(
      `UPDATE conduct_due SET failures = failures + 1, try_at = ?
       WHERE guild_id = ? AND kind = ? AND server = ? AND number = ? AND noted = ?`,
    ),
    // A deterministic id may name a finding withdrawn earlier: it comes back, its message edited, not posted anew.
    insertFinding: d.sql<never, [string, string, string, string, number, number, number, string, number]>(
      `INSERT INTO conduct_finding (guild_id, id, rule, subject, opened_at, first_at, last_at, hits, state, version,
         synced_version, sync_try_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', 1, 0, ?)
       ON CONFLICT (guild_id, id) DO UPDATE SET first_at = excluded.first_at, last_at = excluded.last_at,
         hits = excluded.hits, state = 'open', merged_into = NULL, version = conduct_finding.version + 1,
         sync_try_at = excluded.sync_try_at, sync_failures = 0`,
    ),
    updateHits: d.sql<never, [number, number, string, number, string, string]>(
      `UPDATE conduct_finding SET first_at = ?, last_at = ?, hits = ?, version = version + 1, sync_try_at = ?,
         sync_failures = 0
       WHERE guild_id = ? AND id = ?`,
    ),
    endFinding: d.sql<never, [string, string | null, number, string, string]>(
      `UPDATE conduct_finding SET state = ?, merged_into = ?, hits = '[]', version = version + 1, sync_try_at = ?,
         sync_failures = 0
       WHERE guild_id = ? AND id = ?`,
    ),
    // Not sorted here: on SQLite a sort costs several times the read (tens of µs for no row), and the guard runs
    // this for each rule of each case it judges; the store sorts the few rows (sql-conduct-store.ts).
    findingsNear: d
      .select(FINDING)
      .from<[string, string, string, number, number]>(
        `conduct_finding WHERE guild_id = ? AND rule = ? AND subject = ? AND last_at >= ? AND first_at <= ? AND ${LIVE}`,
      ),
    finding: d.select(FINDING).from<[string, string]>('conduct_finding WHERE guild_id = ? AND id = ?'),
    findingsOf: d
      .select(FINDING)
      .from<[string, number]>('conduct_finding WHERE guild_id = ? ORDER BY opened_at DESC, id LIMIT ?'),
    unsynced: d
      .select(FINDING)
      .from<[number, number]>(
        'conduct_finding WHERE synced_version < version AND sync_try_at <= ? ORDER BY sync_try_at LIMIT ?',
      ),
    writeDown: d.sql<never, [string, number, string, string, string]>(
      `UPDATE conduct_finding SET channel_id = ?, written_at = ?, nonce = ?, message_id = NULL
       WHERE guild_id = ? AND id = ? AND nonce IS NULL`,
    ),
    setMessage: d.sql<never, [string, string | null, string, number, string, string]>(
      `UPDATE conduct_finding SET channel_id = ?, message_id = ?, nonce = ?, written_at = ?
       WHERE guild_id = ? AND id = ?`,
    ),
    markSynced: d.sql<never, [number, number, string, string]>(
      `UPDATE conduct_finding SET synced_version = CASE WHEN synced_version > ? THEN synced_version ELSE ? END,
         sync_failures = 0
       WHERE guild_id = ? AND id = ?`,
    ),
    backOffSync: d.sql<never, [number, number, string, string]>(
      'UPDATE conduct_finding SET sync_try_at = ?, sync_failures = ? WHERE guild_id = ? AND id = ?',
    ),
    act: d.sql<never, [string, string, number, number, string, string]>(
      `UPDATE conduct_finding SET state = ?, acted_by = ?, acted_at = ?, version = version + 1, sync_try_at = ?
       WHERE guild_id = ? AND id = ? AND ${LIVE}`,
    ),
    sweepIds: d.sql<{ guild_id: string; id: string }, [number, number]>(
      'SELECT guild_id, id FROM conduct_finding WHERE last_at < ? ORDER BY last_at LIMIT ?',
    ),
    deleteFinding: d.sql<never, [string, string]>('DELETE FROM conduct_finding WHERE guild_id = ? AND id = ?'),
    putFinding: d.sql<never, unknown[]>(
      `INSERT INTO conduct_finding (guild_id, id, rule, subject, opened_at, first_at, last_at, hits, state,
         merged_into, acted_by, acted_at, version, synced_version, sync_try_at, sync_failures, channel_id, message_id,
         nonce, written_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, id) DO NOTHING`,
    ),
  };
}
