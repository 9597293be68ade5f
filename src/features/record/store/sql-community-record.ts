import { SET_ASIDE_KEPT_MS } from '../../../store/set-aside.js';
import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner, SqlWrite } from '../../../store/sql-runner.js';
import type { SqlSetAside } from '../../../store/sql-set-aside.js';
import { isStoreUnavailable } from '../../../store/store-unavailable.js';
import { sweepInSlices } from '../../../store/sweep-in-slices.js';
import { TableCopy } from '../../../store/table-copy.js';
import {
  DEFAULT_RECORD_RETENTION_DAYS,
  RECORD_TABLE_KEYS,
  type CommunityRecord,
  type ModcallHandling,
  type RecordingPass,
  type RecordSettings,
} from './community-record.js';
import { modcallParams, planRecording, type RecordingPlan, type WritesWithMerges } from './record-merge.js';
import { RECORD_TABLES, type DueGuildRow, type UnrecordedRow } from './record-statements.js';
import { SqlRecordQueries } from './sql-record-queries.js';
import { SqlStaffMoments } from './sql-staff-moments.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The record's tables as migrate-store copies them, the guilds' settings first. */
const RECORD_COPIED = Object.entries(RECORD_TABLE_KEYS).map(([table, key]) => ({ table, key }));
/** Guilds read at a time by the retention sweep. */
const DUE_GUILDS_PAGE = 100;
/** What /status calls a guild's record the retention sweep set aside. */
const SWEEP_LABEL = "the community record's retention sweep";

/**
 * The community record on either engine: what it answers (sql-record-queries.ts), and how it is written, kept for
 * its retention and copied by migrate-store; the shared statements, run by the engine's {@link SqlRunner}.
 * What its writer or its sweep cannot do for one delivery or one guild is set aside (set-aside.ts), the rest done.
 */
export class SqlCommunityRecord extends SqlRecordQueries implements CommunityRecord {
  /** migrate-store: the record's tables as they are. */
  readonly rows: TableCopy;
  /** The record as of a moment (the conduct guard's reads). */
  readonly moments: SqlStaffMoments;

  constructor(
    d: SqlDialect,
    runner: SqlRunner,
    readonly setAside: SqlSetAside,
    private readonly clock: () => number,
  ) {
    super(d, runner);
    this.rows = new TableCopy(d, runner, RECORD_COPIED);
    this.moments = new SqlStaffMoments(d, runner);
  }

  async recordPending(limit: number, withMerges?: WritesWithMerges): Promise<RecordingPass> {
    const rows = await this.runner.read(this.sql.unrecorded, [limit]);
    try {
      return await this.applyRecording(planRecording(this.d, this.sql, rows, withMerges));
    } catch (error) {
      if (isStoreUnavailable(error) || rows.length === 0) throw error;
      // One delivery's merge failed the slice's transaction: each goes again on its own, so only that one waits.
      if (rows.length === 1 && rows[0]) return this.setDeliveryAside(rows[0], error);
      const passes: RecordingPass[] = [];
      for (const row of rows) passes.push(await this.recordAlone(row, false, withMerges));
      return sumPasses(passes);
    }
  }

  async retrySetAside(limit: number, withMerges?: WritesWithMerges): Promise<RecordingPass> {
    const due = await this.setAside.due('record-writer', this.clock(), limit);
    if (due.length === 0) return emptyPass();
    const rows = await this.runner.read(this.sql.unrecordedOf, [this.d.list(due.map(({ item }) => Number(item)))]);
    const found = new Set(rows.map((row) => String(row.seq)));
    // Gone meanwhile (its guild forgotten, or its retention over): nothing left to try.
    const gone = due
      .filter(({ item }) => !found.has(item))
      .map(({ item }) => this.setAside.clearWrite('record-writer', item));
    if (gone.length > 0) await this.runner.write(gone);
    const passes: RecordingPass[] = [];
    for (const row of [...rows].sort((a, b) => a.seq - b.seq))
      passes.push(await this.recordAlone(row, true, withMerges));
    return sumPasses(passes);
  }

  /** The first step of {@link recordPending}: what waits, read without a lock, and what merging it writes. */
  async planPending(limit: number): Promise<RecordingPlan> {
    return planRecording(this.d, this.sql, await this.runner.read(this.sql.unrecorded, [limit]));
  }

  /**
   * The second: the merges, if every delivery read is still stored (else nothing now), then the marks, with
   * `alsoMarked` in the marks' transaction (a delivery recorded is no longer set aside).
   */
  async applyRecording(plan: RecordingPlan, alsoMarked: readonly SqlWrite[] = []): Promise<RecordingPass> {
    const { stillStored, merges, markRecorded, recorded, skipped, guilds, shiftGuilds, sessionGuilds } = plan;
    if (merges.length > 0 && !(await this.runner.writeIfFound(stillStored, merges))) return emptyPass();
    if (markRecorded) await this.runner.write([markRecorded, ...alsoMarked]);
    return { recorded, skipped, setAside: 0, givenUp: 0, guilds, shiftGuilds, sessionGuilds };
  }

  /** One delivery merged on its own (one set aside: cleared once recorded); set aside if it fails. */
  private async recordAlone(
    row: UnrecordedRow,
    wasSetAside: boolean,
    withMerges: WritesWithMerges | undefined,
  ): Promise<RecordingPass> {
    const clear = wasSetAside ? [this.setAside.clearWrite('record-writer', String(row.seq))] : [];
    try {
      return await this.applyRecording(planRecording(this.d, this.sql, [row], withMerges), clear);
    } catch (error) {
      if (isStoreUnavailable(error)) throw error;
      return this.setDeliveryAside(row, error);
    }
  }

  /**
   * Sets the delivery aside (again) after `error`: left out of the writer's passes until its next try, its body
   * kept. Set aside longer than its retention, it is given up instead: marked recorded as one that tells nothing
   * usable (its body dropped once it is posted, as any recorded delivery's), no longer set aside.
   */
  private async setDeliveryAside(row: UnrecordedRow, error: unknown): Promise<RecordingPass> {
    const now = this.clock();
    const item = String(row.seq);
    const label = `${row.event} ${row.delivery_id}`;
    const aside = await this.setAside.setAsideWrite(
      { job: 'record-writer', item, guildId: row.guild_id, label },
      error,
      now,
    );
    if (aside.since <= now - SET_ASIDE_KEPT_MS) {
      const marked = { sql: this.sql.markRecorded, params: [this.d.list([row.seq])] };
      await this.runner.write([marked, this.setAside.clearWrite('record-writer', item)]);
      return { ...emptyPass(), givenUp: 1 };
    }
    await this.runner.write([{ sql: this.sql.setDeliveryAside, params: [row.seq] }, aside.write]);
    return { ...emptyPass(), setAside: 1 };
  }

  async noteModcallHandled(
    guildId: string,
    server: string,
    calls: ReadonlyArray<{ callerId: string; at: number; callerName: string }>,
    handled: ModcallHandling,
  ): Promise<void> {
    // The card is named by its first call, the earliest (the card lists its calls as they came, a late retry after
    // a later call): each of its calls is counted on it, its claim once, in its first call's period.
    const cardAt = calls.length === 0 ? undefined : Math.min(...calls.map((call) => call.at));
    const writes = calls.map((call) => ({
      sql: this.sql.mergeModcall,
      params: modcallParams(guildId, server, call, handled, cardAt),
    }));
    const oldest = Math.min(...calls.map((call) => call.at));
    await this.runner.write([...writes, { sql: this.sql.noteGuild, params: [guildId, oldest] }]);
  }

  async oldestUnrecordedAt(): Promise<number | undefined> {
    const [row] = await this.runner.read(this.sql.oldestUnrecorded, []);
    return row?.received_at;
  }

  async settingsOf(guildId: string): Promise<RecordSettings> {
    const [row] = await this.runner.read(this.sql.settingsOf, [guildId]);
    return {
      retentionDays: row?.retention_days ?? DEFAULT_RECORD_RETENTION_DAYS,
      staffRoleId: row?.staff_role_id ?? null,
    };
  }

  async setRetentionDays(guildId: string, days: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.setRetention, params: [guildId, days] }]);
  }

  async setStaffRole(guildId: string, roleId: string | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setStaffRole, params: [guildId, roleId] }]);
  }

  /**
   * Deletes the rows past their guild's retention, in slices, visiting only the guilds that have some (their
   * `due_at`, migrations/0002-sweep-due.ts), then sets when each is due next. A row merged into a guild while it is swept,
   * older than all its others, may wait for the guild's next due time. A guild whose deletes fail on their own is
   * set aside, its `due_at` put off until its next try; the other guilds are swept.
   */
  async sweep(now: number): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await this.runner.read(this.sql.dueGuilds, [now, DUE_GUILDS_PAGE]);
      for (const guild of due) total += await this.sweepApart(guild, now);
      // A guild swept, or set aside, is due again only after `now`: a page shorter than asked was the last.
      if (due.length < DUE_GUILDS_PAGE) return total;
    }
  }

  /** One guild swept (no longer set aside, if it was); set aside if its deletes fail, not the store. */
  private async sweepApart(guild: DueGuildRow, now: number): Promise<number> {
    const guildId = guild.guild_id;
    try {
      const before = now - (guild.retention_days ?? DEFAULT_RECORD_RETENTION_DAYS) * DAY_MS;
      let total = 0;
      for (const { table } of RECORD_TABLES) {
        const slice = this.sql.sweepSlice[table];
        total += await sweepInSlices((limit) => this.runner.write([{ sql: slice, params: [guildId, before, limit] }]));
      }
      const settle = { sql: this.sql.settleDue, params: [...RECORD_TABLES.map(() => guildId), guildId] };
      const cleared = Number(guild.set_aside) > 0 ? [this.setAside.clearWrite('record-sweep', guildId)] : [];
      await this.runner.write([settle, ...cleared]);
      return total;
    } catch (error) {
      if (isStoreUnavailable(error)) throw error;
      const aside = await this.setAside.setAsideWrite(
        { job: 'record-sweep', item: guildId, guildId, label: SWEEP_LABEL },
        error,
        now,
      );
      await this.runner.write([aside.write, { sql: this.sql.postponeSweep, params: [aside.retryAt, guildId] }]);
      return 0;
    }
  }
}

function emptyPass(): RecordingPass {
  return { recorded: 0, skipped: 0, setAside: 0, givenUp: 0, guilds: [], shiftGuilds: [], sessionGuilds: [] };
}

/** The passes of single deliveries as one: their counts added, each guild named once. */
function sumPasses(passes: readonly RecordingPass[]): RecordingPass {
  const union = (pick: (pass: RecordingPass) => readonly string[]) => [...new Set(passes.flatMap(pick))];
  return {
    recorded: passes.reduce((sum, pass) => sum + pass.recorded, 0),
    skipped: passes.reduce((sum, pass) => sum + pass.skipped, 0),
    setAside: passes.reduce((sum, pass) => sum + pass.setAside, 0),
    givenUp: passes.reduce((sum, pass) => sum + pass.givenUp, 0),
    guilds: union((pass) => pass.guilds),
    shiftGuilds: union((pass) => pass.shiftGuilds),
    sessionGuilds: union((pass) => pass.sessionGuilds),
  };
}
