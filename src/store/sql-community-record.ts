import {
  DEFAULT_RECORD_RETENTION_DAYS,
  type CaseTypeCount,
  type CommunityRecord,
  type ModcallHandling,
  type RecordedCase,
  type RecordedPlayer,
  type RecordingPass,
  type RecordRow,
  type RecordSettings,
  type RecordTableName,
} from './community-record.js';
import { recordChartStatements } from './record-chart-statements.js';
import type { RecordEngine, RecordWrite } from './record-engine.js';
import { exportKeyOf, recordExportStatements, type ExportKind, type ExportRows } from './record-export-statements.js';
import { modcallParams, nameKeyOf, planRecording, prefixEnd, type RecordingPlan } from './record-merge.js';
import type {
  Board,
  DaySeconds,
  EarlierCases,
  GuildDay,
  ModcallResponse,
  ModcallTimes,
  OpenShift,
  RunningSession,
  SessionTotals,
  ShiftTotals,
  Standing,
  TimeRange,
} from './record-queries.js';
import type { CaseRow } from './record-query-statements.js';
import { keyOf, RECORD_TABLES, recordStatements, type RecordStatements } from './record-statements.js';
import type { SqlDialect } from './sql-dialect.js';
import { sweepInSlices } from './sweep-in-slices.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Guilds read at a time by the retention sweep. */
const DUE_GUILDS_PAGE = 100;

/** The community record on either engine: the shared statements, run by the engine's {@link RecordEngine}. */
export class SqlCommunityRecord implements CommunityRecord {
  private readonly sql: RecordStatements;

  constructor(
    private readonly d: SqlDialect,
    private readonly engine: RecordEngine,
  ) {
    this.sql = recordStatements(d);
  }

  async recordPending(limit: number): Promise<RecordingPass> {
    return this.applyRecording(await this.planPending(limit));
  }

  /** The first step of {@link recordPending}: what waits, read without a lock, and what merging it writes. */
  async planPending(limit: number): Promise<RecordingPlan> {
    return planRecording(this.d, this.sql, await this.engine.read(this.sql.unrecorded, [limit]));
  }

  /** The second: the merges, if every delivery read is still stored (else nothing now), then the marks. */
  async applyRecording(plan: RecordingPlan): Promise<RecordingPass> {
    const { stillStored, merges, markRecorded, recorded, skipped, shiftGuilds, sessionGuilds } = plan;
    if (merges.length > 0 && !(await this.engine.writeIfFound(stillStored, merges))) {
      return { recorded: 0, skipped: 0, shiftGuilds: [], sessionGuilds: [] };
    }
    if (markRecorded) await this.engine.write([markRecorded]);
    return { recorded, skipped, shiftGuilds, sessionGuilds };
  }

  async noteModcallHandled(
    guildId: string,
    server: string,
    calls: ReadonlyArray<{ callerId: string; at: number; callerName: string }>,
    handled: ModcallHandling,
  ): Promise<void> {
    const writes = calls.map((call) => ({
      sql: this.sql.mergeModcall,
      params: modcallParams(guildId, server, call, handled),
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

  async casesOf(guildId: string, playerId: string, page: { limit: number; offset: number }): Promise<RecordedCase[]> {
    const rows = await this.engine.read(this.sql.casesOf, [guildId, playerId, page.limit, page.offset]);
    return rows.map(toRecordedCase);
  }

  caseTotals(guildId: string, playerId: string): Promise<CaseTypeCount[]> {
    return this.engine.read(this.sql.caseTotals, [guildId, playerId]);
  }

  async findPlayers(guildId: string, prefix: string, limit: number): Promise<RecordedPlayer[]> {
    const key = nameKeyOf(prefix);
    const rows = await this.engine.read(this.sql.playersFrom, [guildId, key, prefixEnd(key), limit]);
    return rows.map((row) => ({ playerId: row.player_id, name: row.name }));
  }

  async earlierCases(guildId: string, playerId: string, before: number): Promise<EarlierCases> {
    const rows = await this.engine.read(this.sql.earlierCases, [guildId, playerId, before]);
    const lastAt = rows.length === 0 ? undefined : Math.max(...rows.map((row) => row.last_at));
    return { byType: rows.map(({ type, count }) => ({ type, count })), lastAt };
  }

  staffCases(guildId: string, memberId: string, range: TimeRange): Promise<CaseTypeCount[]> {
    return this.engine.read(this.sql.staffCases, [guildId, memberId, range.from, range.to]);
  }

  async shiftTotals(guildId: string, memberId: string, range: TimeRange): Promise<ShiftTotals> {
    const [row] = await this.engine.read(this.sql.shiftTotals, [guildId, memberId, range.from, range.to]);
    return { count: row?.count ?? 0, seconds: row?.seconds ?? 0 };
  }

  async modcallResponse(guildId: string, range: TimeRange): Promise<ModcallResponse> {
    const rows = await this.engine.read(this.sql.modcallTimes, [guildId, range.from, range.to]);
    const claims = new Map<string, Array<number | null>>();
    for (const row of rows) {
      if (row.claimed_by !== null) claims.set(row.claimed_by, [...(claims.get(row.claimed_by) ?? []), row.to_claim]);
    }
    const byMember = [...claims]
      .map(([memberId, times]) => ({ memberId, claimed: times.length, toClaimMs: sorted(times) }))
      .sort((a, b) => b.claimed - a.claimed || (a.memberId < b.memberId ? -1 : 1));
    return { ...timesOf(rows), byMember };
  }

  async memberModcalls(guildId: string, memberId: string, range: TimeRange): Promise<ModcallTimes> {
    const params = [memberId, memberId, guildId, range.from, range.to, memberId, memberId] as const;
    return timesOf(await this.engine.read(this.sql.memberModcallTimes, [...params]));
  }

  async openShifts(guildId: string): Promise<OpenShift[]> {
    const rows = await this.engine.read(this.sql.openShifts, [guildId]);
    return rows.map((row) => ({
      server: row.server,
      shiftId: row.shift_id,
      memberId: row.member_id,
      memberName: row.member_name,
      startedAt: row.started_at,
    }));
  }

  async runningSessions(guildId: string): Promise<RunningSession[]> {
    const rows = await this.engine.read(this.sql.runningSessions, [guildId]);
    return rows.map((row) => ({
      server: row.server,
      sessionId: row.session_id,
      name: row.name,
      startedAt: row.started_at,
    }));
  }

  async membersOffShift(guildId: string, startedFrom: number, endedFrom: number): Promise<string[]> {
    const rows = await this.engine.read(this.sql.membersOffShift, [guildId, startedFrom, endedFrom]);
    return rows.map((row) => row.member_id);
  }

  async leaderboard(guildId: string, board: Board, range: TimeRange): Promise<Standing[]> {
    const rows = await this.engine.read(this.sql.leaderboard[board], [guildId, range.from, range.to]);
    return rows.map((row) => ({ memberId: row.member_id, name: row.name, value: row.value }));
  }

  exportRows(table: RecordTableName, after: RecordRow | undefined, limit: number): Promise<RecordRow[]> {
    if (!after) return this.engine.read(this.sql.firstRows[table], [limit]);
    return this.engine.read(this.sql.rowsAfter[table], [...keyOf(table).map((column) => after[column]), limit]);
  }

  importRows(table: RecordTableName, rows: readonly RecordRow[]): Promise<number> {
    return this.engine.write(rows.map((row) => insertRow(this.d, table, row)));
  }

  async findPlayer(guildId: string, idOrName: string): Promise<RecordedPlayer | undefined> {
    const [byId] = await this.engine.read(this.sql.playerById, [guildId, idOrName]);
    const [row] = byId ? [byId] : await this.engine.read(this.sql.playerByName, [guildId, nameKeyOf(idOrName)]);
    return row && { playerId: row.player_id, name: row.name };
  }

  private exportSql?: ReturnType<typeof recordExportStatements>;

  exportPage<K extends ExportKind>(
    kind: K,
    guildId: string,
    range: TimeRange,
    after: ExportRows[K] | undefined,
    limit: number,
  ): Promise<Array<ExportRows[K]>> {
    this.exportSql ??= recordExportStatements(this.d);
    const pages = this.exportSql[kind];
    if (!after) return this.engine.read(pages.first, [guildId, range.from, range.to, limit]);
    // From the last row's time on: the key's comparison passes over that row and the ones before it at its time.
    const from = Math.max(range.from, after.at);
    return this.engine.read(pages.after, [guildId, from, range.to, ...exportKeyOf(kind, after), limit]);
  }

  private chartSql?: ReturnType<typeof recordChartStatements>;

  guildCases(guildId: string, range: TimeRange): Promise<CaseTypeCount[]> {
    return this.engine.read(this.sql.guildCases, [guildId, range.from, range.to]);
  }

  async sessionTotals(guildId: string, range: TimeRange): Promise<SessionTotals> {
    const [row] = await this.engine.read(this.sql.sessionTotals, [guildId, range.from, range.to]);
    return { sessions: row?.sessions ?? 0, seconds: row?.seconds ?? 0, peakPlayers: row?.peak_players ?? null };
  }

  async guildDays(guildId: string, range: TimeRange): Promise<GuildDay[]> {
    this.chartSql ??= recordChartStatements(this.d);
    const { from, to } = range;
    const rows = await this.engine.read(this.chartSql.guildDays, [
      guildId,
      from,
      to,
      guildId,
      from,
      to,
      guildId,
      from,
      to,
    ]);
    return rows.map((row) => ({
      day: row.day,
      shiftSeconds: row.shift_seconds,
      cases: row.cases,
      modcalls: row.modcalls,
    }));
  }

  async shiftDays(guildId: string, memberId: string, range: TimeRange): Promise<DaySeconds[]> {
    this.chartSql ??= recordChartStatements(this.d);
    const rows = await this.engine.read(this.chartSql.shiftDays, [guildId, memberId, range.from, range.to]);
    return rows.map(({ day, seconds }) => ({ day, seconds }));
  }
}

/** Calls, claims and resolutions of the rows, with their times sorted. */
function timesOf(rows: ReadonlyArray<{ to_claim: number | null; to_resolve: number | null }>): ModcallTimes {
  const toClaimMs = sorted(rows.map((row) => row.to_claim));
  const toResolveMs = sorted(rows.map((row) => row.to_resolve));
  return { calls: rows.length, claimed: toClaimMs.length, resolved: toResolveMs.length, toClaimMs, toResolveMs };
}

/** The times that are there, shortest first (a time is never negative: a clock may be off, not time). */
function sorted(times: ReadonlyArray<number | null>): number[] {
  return times
    .filter((time): time is number => time !== null)
    .map((time) => Math.max(0, time))
    .sort((a, b) => a - b);
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

/** A case row as the record's reader sees it: what no delivery told yet is absent. */
function toRecordedCase(row: CaseRow): RecordedCase {
  const found: RecordedCase = { server: row.server, number: row.number, at: row.at };
  if (row.type !== null) found.type = row.type;
  if (row.target_id !== null) found.targetId = row.target_id;
  if (row.target_name !== null) found.targetName = row.target_name;
  if (row.moderator_id !== null) found.moderatorId = row.moderator_id;
  if (row.moderator_name !== null) found.moderatorName = row.moderator_name;
  if (row.reason !== null) found.reason = row.reason;
  if (row.voided_at !== null) found.voidedAt = row.voided_at;
  if (row.voided_by !== null) found.voidedBy = row.voided_by;
  return found;
}
