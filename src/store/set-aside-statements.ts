import type { SqlDialect } from './sql-dialect.js';
import { columns, type RowOf } from './table-columns.js';

/** A set-aside item as it is read (migrations/0008-set-aside.ts). */
export const SET_ASIDE_ITEM = columns(
  'set_aside',
  'job',
  'item',
  'guild_id',
  'label',
  'reason',
  'attempts',
  'since',
  'retry_at',
);
export type SetAsideRow = RowOf<typeof SET_ASIDE_ITEM>;
const TRIES = columns('set_aside', 'attempts', 'since');

/** The statements of the items set aside, written once for both engines (see queue-statements.ts). */
export function setAsideStatements(d: SqlDialect) {
  return {
    /** An item's failed tries so far and since when it is set aside (none: never set aside, or done since). */
    triesOf: d.select(TRIES).from<[string, string]>('set_aside WHERE job = ? AND item = ?'),
    /** Sets an item aside, or again: one try more, the latest reason, its next try; `since` stays the first. */
    setAside: d.sql<never, [string, string, string | null, string, string, number, number]>(
      `INSERT INTO set_aside (job, item, guild_id, label, reason, attempts, since, retry_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?)
       ON CONFLICT (job, item) DO UPDATE SET label = excluded.label, reason = excluded.reason,
         attempts = set_aside.attempts + 1, retry_at = excluded.retry_at`,
    ),
    /** The item is done (or gone): no longer set aside. */
    clear: d.sql<never, [string, string]>('DELETE FROM set_aside WHERE job = ? AND item = ?'),
    /** The job's items due for another try, the longest due first, by set_aside_due. */
    due: d
      .select(SET_ASIDE_ITEM)
      .from<[string, number, number]>('set_aside WHERE job = ? AND retry_at <= ? ORDER BY retry_at LIMIT ?'),
    /** /status: a guild's items, the longest set aside first, by set_aside_by_guild. */
    ofGuild: d.select(SET_ASIDE_ITEM).from<[string, number]>('set_aside WHERE guild_id = ? ORDER BY since LIMIT ?'),
    /** The host's list (npm run retry-set-aside): every guild's, the longest set aside first. */
    all: d.select(SET_ASIDE_ITEM).from<[number]>('set_aside ORDER BY since LIMIT ?'),
    /** /metrics: the items of each job (the table holds only what failed: a few rows). */
    countByJob: d.sql<{ job: string; n: number }, []>('SELECT job, count(*) AS n FROM set_aside GROUP BY job'),
    /** The host's retry at once: every item (of one job) due now. */
    retryAll: d.sql<never, [number, number]>('UPDATE set_aside SET retry_at = ? WHERE retry_at > ?'),
    retryJob: d.sql<never, [number, string, number]>(
      'UPDATE set_aside SET retry_at = ? WHERE job = ? AND retry_at > ?',
    ),
    /** The retention sweep finds the guilds it set aside by their `due_at` (record-statements.ts): due now too. */
    sweepNow: d.sql<never, [number]>(
      `UPDATE record_guild SET due_at = ?
       WHERE guild_id IN (SELECT item FROM set_aside WHERE job = 'record-sweep')`,
    ),
    /** Forgetting a guild the bot left (forget-guild.ts), in the same transaction as the rest. */
    forgetGuild: d.sql<never, [string]>('DELETE FROM set_aside WHERE guild_id = ?'),
  };
}

export type SetAsideStatements = ReturnType<typeof setAsideStatements>;
