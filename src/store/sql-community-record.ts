import {
  DEFAULT_RECORD_RETENTION_DAYS,
  type CommunityRecord,
  type ModcallHandling,
  type RecordingPass,
  type RecordRow,
  type RecordSettings,
  type RecordTableName,
} from './community-record.js';
import type { RecordWrite } from './record-engine.js';
import { modcallParams, planRecording, type RecordingPlan } from './record-merge.js';
import { keyOf, RECORD_TABLES } from './record-statements.js';
import type { SqlDialect } from './sql-dialect.js';
import { SqlRecordQueries } from './sql-record-queries.js';
import { sweepInSlices } from './sweep-in-slices.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Guilds read at a time by the retention sweep. */
const DUE_GUILDS_PAGE = 100;

/**
 * The community record on either engine: what it answers (sql-record-queries.ts), and how it is written, kept for
 * its retention and copied by migrate-store; the shared statements, run by the engine's {@link RecordEngine}.
 */
export class SqlCommunityRecord extends SqlRecordQueries implements CommunityRecord {
  async recordPending(limit: number): Promise<RecordingPass> {
    return this.applyRecording(await this.planPending(limit));
  }

  /** The first step of {@link recordPending}: what waits, read without a lock, and what merging it writes. */
  async planPending(limit: number): Promise<RecordingPlan> {
    return planRecording(this.d, this.sql, await this.engine.read(this.sql.unrecorded, [limit]));
  }

  /** The second: the merges, if every delivery read is still stored (else nothing now), then the marks. */
  async applyRecording(plan: RecordingPlan): Promise<RecordingPass> {
    const { stillStored, merges, markRecorded, recorded, skipped, guilds, shiftGuilds, sessionGuilds } = plan;
    if (merges.length > 0 && !(await this.engine.writeIfFound(stillStored, merges))) {
      return { recorded: 0, skipped: 0, guilds: [], shiftGuilds: [], sessionGuilds: [] };
    }
    if (markRecorded) await this.engine.write([markRecorded]);
    return { recorded, skipped, guilds, shiftGuilds, sessionGuilds };
  }

  async noteModcallHandled(
    guildId: string,
    server: string,
    calls: ReadonlyArray<{ callerId: string; at: number; callerName: string }>,
    handled: ModcallHandling,
  ): Promise<void> {
    // The card is named by its first call: each of its calls is counted on it, its claim once.
    const cardAt = calls[0]?.at;
    const writes = calls.map((call) => ({
      sql: this.sql.mergeModcall,
      params: modcallParams(guildId, server, call, handled, cardAt),
    }));
    const oldest = Math.min(...calls.map((call) => call.at));
    await this.engine.write([...writes, { sql: this.sql.noteGuild, params: [guildId, oldest] }]);
  }

  async oldestUnrecordedAt(): Promise<number | undefined> {
    const [row] = await this.engine.read(this.sql.oldestUnrecorded, []);
    return row?.received_at;
  }

  async settingsOf(guildId: string): Promise<RecordSettings> {
    const [row] = await this.engine.read(this.sql.settingsOf, [guildId]);
    return {
      retentionDays: row?.retention_days ?? DEFAULT_RECORD_RETENTION_DAYS,
      staffRoleId: row?.staff_role_id ?? null,
    };
  }

  async setRetentionDays(guildId: string, days: number): Promise<void> {
    await this.engine.write([{ sql: this.sql.setRetention, params: [guildId, days] }]);
  }

  async setStaffRole(guildId: string, roleId: string | null): Promise<void> {
    await this.engine.write([{ sql: this.sql.setStaffRole, params: [guildId, roleId] }]);
  }

  /**
   * Deletes the rows past their guild's retention, in slices, visiting only the guilds that have some (their
   * `due_at`, record-schema.ts), then sets when each is due next. A row merged into a guild while it is swept,
   * older than all its others, may wait for the guild's next due time.
   */
  async sweep(now: number): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await this.engine.read(this.sql.dueGuilds, [now, DUE_GUILDS_PAGE]);
      for (const guild of due) {
        const before = now - (guild.retention_days ?? DEFAULT_RECORD_RETENTION_DAYS) * DAY_MS;
        for (const { table } of RECORD_TABLES) {
          const slice = this.sql.sweepSlice[table];
          total += await sweepInSlices((limit) =>
            this.engine.write([{ sql: slice, params: [guild.guild_id, before, limit] }]),
          );
        }
        const guildId = guild.guild_id;
        await this.engine.write([{ sql: this.sql.settleDue, params: [...RECORD_TABLES.map(() => guildId), guildId] }]);
      }
      // A guild swept is due again only after `now`: a page shorter than asked was the last.
      if (due.length < DUE_GUILDS_PAGE) return total;
    }
  }

  exportRows(table: RecordTableName, after: RecordRow | undefined, limit: number): Promise<RecordRow[]> {
    if (!after) return this.engine.read(this.sql.firstRows[table], [limit]);
    return this.engine.read(this.sql.rowsAfter[table], [...keyOf(table).map((column) => after[column]), limit]);
  }

  importRows(table: RecordTableName, rows: readonly RecordRow[]): Promise<number> {
    return this.engine.write(rows.map((row) => insertRow(this.d, table, row)));
  }
}

/** What importRows stores: the row's own columns, and nothing over a row already there. */
function insertRow(d: SqlDialect, table: RecordTableName, row: RecordRow): RecordWrite {
  const names = Object.keys(row);
  // The names become SQL: only a column name as the record's tables spell them gets that far.
  const odd = names.find((name) => !/^[a-z_]+$/.test(name));
  if (odd !== undefined) throw new Error(`a ${table} row to import has a column named ${JSON.stringify(odd)}`);
  const sql = d.sql(
    `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})
     ON CONFLICT (${keyOf(table).join(', ')}) DO NOTHING`,
  );
  return { sql, params: names.map((name) => row[name]) };
}
