import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner } from '../../../store/sql-runner.js';
import type { TimeRange } from './record-queries.js';
import { momentStatements, type CaseRow, type ShiftRow } from './staff-moment-statements.js';
import type { CaseMoment, MomentCase, MomentReads, MomentShift, MomentSpans, StaffMoments } from './staff-moments.js';

/** The record read as of a moment (staff-moments.ts), on either engine. */
export class SqlStaffMoments implements StaffMoments {
  private readonly sql: ReturnType<typeof momentStatements>;

  constructor(
    d: SqlDialect,
    private readonly runner: SqlRunner,
  ) {
    this.sql = momentStatements(d);
  }

  async caseMoment(
    guildId: string,
    server: string,
    number: number,
    spans: MomentSpans,
    reads: MomentReads,
  ): Promise<CaseMoment | undefined> {
    const { shiftCoversMs, shiftsInUseMs } = spans;
    const flag = (asked: boolean) => (asked ? 1 : 0);
    const params = [
      ...[flag(reads.moderatorOnShift), shiftCoversMs, reads.staffOnShiftForType, shiftCoversMs],
      ...[flag(reads.shiftsInUse), shiftsInUseMs, flag(reads.targetStaffSince), guildId, server, number],
    ];
    const [row] = await this.runner.read(this.sql.caseMoment, params);
    if (!row) return undefined;
    return {
      case: toCase(row),
      moderatorOnShift: row.on_shift === null ? null : row.on_shift === 1,
      staffOnShift: row.staff_on_shift,
      shiftsInUse: row.in_use === null ? null : row.in_use === 1,
      targetStaffSince: row.staff_since,
    };
  }

  async shiftOf(guildId: string, server: string, shiftId: number): Promise<MomentShift | undefined> {
    const [row] = await this.runner.read(this.sql.shiftOf, [guildId, server, shiftId]);
    return row && toShift(row);
  }

  async casesBy(
    guildId: string,
    moderatorId: string,
    range: TimeRange,
    types?: readonly [string, string],
  ): Promise<MomentCase[]> {
    const rows = types
      ? await this.runner.read(this.sql.burstCasesBy, [guildId, moderatorId, range.from, range.to, ...types])
      : await this.runner.read(this.sql.casesBy, [guildId, moderatorId, range.from, range.to]);
    return rows.map(toCase).sort(byTime);
  }

  async voidsBy(guildId: string, voidedBy: string, range: TimeRange): Promise<MomentCase[]> {
    const rows = await this.runner.read(this.sql.voidsBy, [guildId, voidedBy, range.from, range.to]);
    return rows.map(toCase).sort(byVoidTime);
  }

  async casesAgainst(guildId: string, targetId: string, range: TimeRange): Promise<MomentCase[]> {
    const rows = await this.runner.read(this.sql.casesAgainst, [guildId, targetId, range.from, range.to]);
    return rows.map(toCase).sort(byTime);
  }

  async casesMadeIn(guildId: string, range: TimeRange, limit: number, type?: string): Promise<MomentCase[]> {
    const typed = type === undefined ? [] : [type];
    const madeIn = type === undefined ? this.sql.casesMadeIn : this.sql.typedCasesMadeIn;
    const rows = (await this.runner.read(madeIn, [guildId, range.from, range.to, ...typed, limit])).map(toCase);
    const last = rows.at(-1);
    if (last === undefined || rows.length < limit) return rows.sort(byTime);
    // The limit may have cut the cases of the last time anywhere: those are read again in order to fill it up.
    const earlier = rows.filter((found) => found.at < last.at).sort(byTime);
    const madeAt = type === undefined ? this.sql.casesMadeAt : this.sql.typedCasesMadeAt;
    const sameTime = await this.runner.read(madeAt, [guildId, last.at, ...typed, limit - earlier.length]);
    return [...earlier, ...sameTime.map(toCase).sort(byTime)];
  }

  async shiftsBegunIn(guildId: string, range: TimeRange, memberId?: string): Promise<MomentShift[]> {
    const rows =
      memberId === undefined
        ? await this.runner.read(this.sql.shiftsBegunIn, [guildId, range.from, range.to])
        : await this.runner.read(this.sql.memberShiftsBegunIn, [guildId, memberId, range.from, range.to]);
    return rows.map(toShift);
  }

  async shiftStartBefore(
    guildId: string,
    at: number,
    other: { server: string; shiftId: number },
    spanMs: number,
  ): Promise<number | null> {
    const [before] = await this.runner.read(this.sql.startBefore, [
      guildId,
      at,
      at - spanMs,
      other.server,
      other.shiftId,
    ]);
    return before?.at ?? null;
  }

  async firstClockIn(guildId: string, robloxId: string): Promise<number | null> {
    const [row] = await this.runner.read(this.sql.firstClockIn, [guildId, robloxId]);
    return row?.at ?? null;
  }
}

/** Cases by time, then server and number (the order the SQL gave: servers are digits, bytes and locale agree). */
function byTime(a: MomentCase, b: MomentCase): number {
  return a.at - b.at || compareText(a.server, b.server) || a.number - b.number;
}

/** Voided cases by void time, then server and number. */
function byVoidTime(a: MomentCase, b: MomentCase): number {
  return (a.voidedAt ?? 0) - (b.voidedAt ?? 0) || compareText(a.server, b.server) || a.number - b.number;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toCase(row: CaseRow): MomentCase {
  return {
    server: row.server,
    number: row.number,
    at: row.at,
    createdAt: row.created_at,
    type: row.type,
    targetId: row.target_id,
    targetName: row.target_name,
    moderatorId: row.moderator_id,
    moderatorName: row.moderator_name,
    voidedAt: row.voided_at,
    voidedBy: row.voided_by,
  };
}

function toShift(row: ShiftRow): MomentShift {
  return {
    server: row.server,
    shiftId: row.shift_id,
    at: row.at,
    endedAt: row.ended_at,
    memberId: row.member_id,
    memberName: row.member_name,
    robloxId: row.roblox_id,
  };
}
