import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner } from '../../../store/sql-runner.js';
import type { EvidenceLookup, EvidenceRecord } from './case-evidence.js';
import type { CaseTypeCount, RecordedCase, RecordedPlayer } from './community-record.js';
import { evidenceStatements } from './evidence-statements.js';
import { memberMonthStatements } from './member-month-statements.js';
import { readCaseEvidence } from './read-case-evidence.js';
import { readGuildDays } from './read-guild-days.js';
import { readMemberMonths } from './read-member-months.js';
import { readSessionFacts } from './read-session-facts.js';
import { recordChartStatements } from './record-chart-statements.js';
import { exportKeyOf, recordExportStatements, type ExportKind, type ExportRows } from './record-export-statements.js';
import type { RecordExport } from './record-export.js';
import { nameKeyOf, prefixEnd } from './record-merge.js';
import type {
  Board,
  DaySeconds,
  EarlierCases,
  GuildDay,
  MemberMonth,
  ModcallResponse,
  ModcallTimes,
  OpenShift,
  RangeActivity,
  RecordQueries,
  RunningSession,
  SessionTotals,
  ShiftTotals,
  Standing,
  TimeRange,
} from './record-queries.js';
import type { CaseRow } from './record-query-statements.js';
import { recordStatements, type RecordStatements } from './record-statements.js';
import type { SessionFacts, SessionRecord } from './session-facts.js';
import { sessionStatements } from './session-statements.js';
import { sorted } from './sorted-times.js';

/**
 * What the community record answers (lookups, statistics, charts, the export's pages) on either engine: the shared
 * statements, run by the engine's {@link SqlRunner}. The record's writing, retention and copy build on it
 * (sql-community-record.ts).
 */
export class SqlRecordQueries implements RecordQueries, RecordExport, SessionRecord, EvidenceRecord {
  protected readonly sql: RecordStatements;

  constructor(
    protected readonly d: SqlDialect,
    protected readonly runner: SqlRunner,
  ) {
    this.sql = recordStatements(d);
  }

  async casesOf(guildId: string, playerId: string, page: { limit: number; offset: number }): Promise<RecordedCase[]> {
    const rows = await this.runner.read(this.sql.casesOf, [guildId, playerId, page.limit, page.offset]);
    return rows.map(toRecordedCase);
  }

  caseTotals(guildId: string, playerId: string): Promise<CaseTypeCount[]> {
    return this.runner.read(this.sql.caseTotals, [guildId, playerId]);
  }

  async findPlayers(guildId: string, prefix: string, limit: number): Promise<RecordedPlayer[]> {
    const key = nameKeyOf(prefix);
    const rows = await this.runner.read(this.sql.playersFrom, [guildId, key, prefixEnd(key), limit]);
    return rows.map((row) => ({ playerId: row.player_id, name: row.name }));
  }

  async earlierCases(guildId: string, playerId: string, before: number): Promise<EarlierCases> {
    const rows = await this.runner.read(this.sql.earlierCases, [guildId, playerId, before]);
    const lastAt = rows.length === 0 ? undefined : Math.max(...rows.map((row) => row.last_at));
    return { byType: rows.map(({ type, count }) => ({ type, count })), lastAt };
  }

  staffCases(guildId: string, memberId: string, range: TimeRange): Promise<CaseTypeCount[]> {
    return this.runner.read(this.sql.staffCases, [guildId, memberId, range.from, range.to]);
  }

  async shiftTotals(guildId: string, memberId: string, range: TimeRange): Promise<ShiftTotals> {
    const [row] = await this.runner.read(this.sql.shiftTotals, [guildId, memberId, range.from, range.to]);
    return { count: row?.count ?? 0, seconds: row?.seconds ?? 0 };
  }

  async modcallResponse(guildId: string, range: TimeRange): Promise<ModcallResponse> {
    const rows = await this.runner.read(this.sql.modcallTimes, [guildId, range.from, range.to]);
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
    return timesOf(await this.runner.read(this.sql.memberModcallTimes, [...params]));
  }

  async openShifts(guildId: string): Promise<OpenShift[]> {
    const rows = await this.runner.read(this.sql.openShifts, [guildId]);
    return rows.map((row) => ({
      server: row.server,
      shiftId: row.shift_id,
      memberId: row.member_id,
      memberName: row.member_name,
      startedAt: row.started_at,
    }));
  }

  async runningSessions(guildId: string): Promise<RunningSession[]> {
    const rows = await this.runner.read(this.sql.runningSessions, [guildId]);
    return rows.map((row) => ({
      server: row.server,
      sessionId: row.session_id,
      name: row.name,
      startedAt: row.started_at,
    }));
  }

  async membersOffShift(guildId: string, startedFrom: number, endedFrom: number): Promise<string[]> {
    const rows = await this.runner.read(this.sql.membersOffShift, [guildId, startedFrom, endedFrom]);
    return rows.map((row) => row.member_id);
  }

  async leaderboard(guildId: string, board: Board, range: TimeRange): Promise<Standing[]> {
    const rows = await this.runner.read(this.sql.leaderboard[board], [guildId, range.from, range.to]);
    return rows.map((row) => ({ memberId: row.member_id, name: row.name, value: row.value }));
  }

  async activityIn(guildId: string, range: TimeRange): Promise<RangeActivity> {
    const params: [string, number, number] = [guildId, range.from, range.to];
    const [shifts, cases, cards] = await Promise.all([
      this.runner.read(this.sql.activityShifts, params),
      this.runner.read(this.sql.activityCases, params),
      this.runner.read(this.sql.activityCards, params),
    ]);
    return {
      shifts: shifts.map((row) => ({
        memberId: row.member_id,
        startedAt: row.started_at,
        endedAt: row.ended_at,
        seconds: row.seconds,
      })),
      cases: cases.map((row) => ({ memberId: row.member_id, at: row.at })),
      cards: cards.map((row) => ({ at: row.at, claimedBy: row.claimed_by, claimedAt: row.claimed_at })),
    };
  }

  async findPlayer(guildId: string, idOrName: string): Promise<RecordedPlayer | undefined> {
    const [byId] = await this.runner.read(this.sql.playerById, [guildId, idOrName]);
    const [row] = byId ? [byId] : await this.runner.read(this.sql.playerByName, [guildId, nameKeyOf(idOrName)]);
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
    if (!after) return this.runner.read(pages.first, [guildId, range.from, range.to, limit]);
    // From the last row's time on: the key's comparison passes over that row and the ones before it at its time.
    const from = Math.max(range.from, after.at);
    return this.runner.read(pages.after, [guildId, from, range.to, ...exportKeyOf(kind, after), limit]);
  }

  private sessionSql?: ReturnType<typeof sessionStatements>;

  sessionFacts(
    guildId: string,
    server: string,
    sessionId: number,
    until: number,
    limit: number,
  ): Promise<SessionFacts | undefined> {
    this.sessionSql ??= sessionStatements(this.d);
    return readSessionFacts(this.runner, this.sessionSql, { guildId, server, sessionId }, until, limit);
  }

  private evidenceSql?: ReturnType<typeof evidenceStatements>;

  caseEvidence(guildId: string, number: number, server?: string): Promise<EvidenceLookup> {
    this.evidenceSql ??= evidenceStatements(this.d);
    return readCaseEvidence(this.runner, { evidence: this.evidenceSql, record: this.sql }, { guildId, number, server });
  }

  private chartSql?: ReturnType<typeof recordChartStatements>;

  guildCases(guildId: string, range: TimeRange): Promise<CaseTypeCount[]> {
    return this.runner.read(this.sql.guildCases, [guildId, range.from, range.to]);
  }

  async sessionTotals(guildId: string, range: TimeRange): Promise<SessionTotals> {
    const [row] = await this.runner.read(this.sql.sessionTotals, [guildId, range.from, range.to]);
    return { sessions: row?.sessions ?? 0, seconds: row?.seconds ?? 0, peakPlayers: row?.peak_players ?? null };
  }

  guildDays(guildId: string, range: TimeRange, timeZone: string): Promise<GuildDay[]> {
    this.chartSql ??= recordChartStatements(this.d);
    return readGuildDays(this.runner, this.chartSql, guildId, range, timeZone);
  }

  async shiftDays(guildId: string, memberId: string, range: TimeRange): Promise<DaySeconds[]> {
    this.chartSql ??= recordChartStatements(this.d);
    const rows = await this.runner.read(this.chartSql.shiftDays, [guildId, memberId, range.from, range.to]);
    return rows.map(({ day, seconds }) => ({ day, seconds }));
  }

  async memberMonths(guildId: string, memberId: string, range: TimeRange): Promise<MemberMonth[]> {
    return readMemberMonths(this.runner, memberMonthStatements(this.d), [guildId, memberId, range.from, range.to]);
  }
}

/** Calls, cards, and the cards' claims and resolutions (on their first calls' rows), with their times sorted. */
function timesOf(
  rows: ReadonlyArray<{ first_call: number; to_claim: number | null; to_resolve: number | null }>,
): ModcallTimes {
  const toClaimMs = sorted(rows.map((row) => row.to_claim));
  const toResolveMs = sorted(rows.map((row) => row.to_resolve));
  const cards = rows.filter((row) => row.first_call === 1).length;
  return { calls: rows.length, cards, claimed: toClaimMs.length, resolved: toResolveMs.length, toClaimMs, toResolveMs };
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
