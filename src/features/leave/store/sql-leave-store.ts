import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner } from '../../../store/sql-runner.js';
import { sweepInSlices } from '../../../store/sweep-in-slices.js';
import { TableCopy } from '../../../store/table-copy.js';
import { leaveStatements, type LeaveRow, type RequestRow } from './leave-statements.js';
import type {
  AddedLeave,
  LeaveRequest,
  LeaveRoleHolder,
  LeaveSettings,
  LeaveStore,
  LeaveWork,
  MemberLeave,
  NewLeave,
} from './leave-store.js';

/** Leave's tables, by their keys: what migrate-store copies and forgetting a guild empties. */
export const LEAVE_TABLES = [
  { table: 'leave_settings', key: ['guild_id'] },
  { table: 'leave_request', key: ['guild_id', 'number'] },
  { table: 'leave_role_holder', key: ['guild_id', 'number'] },
  { table: 'leave_reduced_quota', key: ['guild_id', 'role_id'] },
] as const;

/** Leave on either engine, over the store's SQL runner. */
export class SqlLeaveStore implements LeaveStore {
  private readonly sql: ReturnType<typeof leaveStatements>;
  /** migrate-store: the tables as they are. */
  readonly rows: TableCopy;

  constructor(
    d: SqlDialect,
    private readonly runner: SqlRunner,
  ) {
    this.sql = leaveStatements(d);
    this.rows = new TableCopy(d, runner, LEAVE_TABLES);
  }

  async settingsOf(guildId: string): Promise<LeaveSettings> {
    const [row] = await this.runner.read(this.sql.settingsOf, [guildId]);
    return {
      channelId: row?.channel_id ?? null,
      managerRoleId: row?.manager_role_id ?? null,
      roleId: row?.role_id ?? null,
      roleSetBy: row?.role_set_by ?? null,
      timeZone: row?.time_zone ?? 'UTC',
    };
  }

  async setChannel(guildId: string, channelId: string | null, timeZone: string): Promise<void> {
    await this.runner.write([{ sql: this.sql.setChannel, params: [guildId, channelId, timeZone] }]);
  }

  async setManagerRole(guildId: string, roleId: string | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setManagerRole, params: [guildId, roleId] }]);
  }

  async setRole(guildId: string, roleId: string | null, setBy: string | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setRole, params: [guildId, roleId, roleId === null ? null : setBy] }]);
  }

  async addRequest(guildId: string, ask: NewLeave): Promise<AddedLeave> {
    const { memberId, kind, startsAt, endsAt, reason, askedAt } = ask;
    const changed = await this.runner.write([
      { sql: this.sql.raiseNumber, params: [guildId] },
      {
        sql: this.sql.insertRequest,
        params: [
          memberId,
          kind,
          startsAt,
          endsAt,
          endsAt,
          reason,
          askedAt,
          askedAt,
          guildId,
          guildId,
          memberId,
          endsAt,
          startsAt,
        ],
      },
    ]);
    if (changed === 0) return { kind: 'closed' };
    if (changed === 1) return { kind: 'overlaps' };
    const [row] = await this.runner.read(this.sql.latestOf, [guildId, memberId]);
    if (!row) throw new Error('a leave request stored was not found');
    return { kind: 'stored', request: toRequest(row) };
  }

  async requestOf(guildId: string, number: number): Promise<LeaveRequest | undefined> {
    const [row] = await this.runner.read(this.sql.requestOf, [guildId, number]);
    return row && toRequest(row);
  }

  async overlapping(guildId: string, memberId: string, from: number, to: number): Promise<LeaveRequest[]> {
    return (await this.runner.read(this.sql.overlapping, [guildId, memberId, to, from])).map(toRequest);
  }

  async requestsOf(guildId: string, memberId: string, limit: number): Promise<LeaveRequest[]> {
    return (await this.runner.read(this.sql.requestsOf, [guildId, memberId, limit])).map(toRequest);
  }

  async openRequests(guildId: string, now: number, limit: number): Promise<LeaveRequest[]> {
    return (await this.runner.read(this.sql.openRequests, [guildId, now, limit])).map(toRequest);
  }

  async decide(
    guildId: string,
    number: number,
    decision: 'approved' | 'denied',
    by: string,
    at: number,
  ): Promise<LeaveRequest | undefined> {
    const write =
      decision === 'approved'
        ? { sql: this.sql.approve, params: [by, at, guildId, number] }
        : { sql: this.sql.deny, params: [by, at, guildId, number] };
    if ((await this.runner.write([write])) === 0) return undefined;
    return this.requestOf(guildId, number);
  }

  async cancel(guildId: string, number: number, at: number): Promise<boolean> {
    return (await this.runner.write([{ sql: this.sql.cancel, params: [at, guildId, number, at] }])) > 0;
  }

  async endEarly(guildId: string, number: number, at: number): Promise<boolean> {
    return (await this.runner.write([{ sql: this.sql.endEarly, params: [at, at, guildId, number, at, at] }])) > 0;
  }

  async askCard(guildId: string, number: number, channelId: string, at: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.askCard, params: [channelId, at, guildId, number] }]);
  }

  async setCard(guildId: string, number: number, channelId: string, messageId: string): Promise<void> {
    await this.runner.write([{ sql: this.sql.setCard, params: [channelId, messageId, guildId, number] }]);
  }

  async due(now: number, limit: number): Promise<LeaveRequest[]> {
    return (await this.runner.read(this.sql.due, [now, limit])).map(toRequest);
  }

  async nextDue(): Promise<number | undefined> {
    const [row] = await this.runner.read(this.sql.nextDue, []);
    return row?.try_at ?? undefined;
  }

  async moveOn(
    guildId: string,
    number: number,
    from: LeaveWork,
    next: LeaveWork | null,
    tryAt: number | null,
  ): Promise<boolean> {
    return (await this.runner.write([{ sql: this.sql.moveOn, params: [next, tryAt, guildId, number, from] }])) > 0;
  }

  async backOff(guildId: string, number: number, work: LeaveWork, tryAt: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.backOff, params: [tryAt, guildId, number, work] }]);
  }

  onLeaveAt(guildId: string, at: number): Promise<MemberLeave[]> {
    return this.leaveIn(guildId, at, at + 1);
  }

  async leaveIn(guildId: string, from: number, to: number): Promise<MemberLeave[]> {
    return (await this.runner.read(this.sql.leaveIn, [guildId, from, to])).map(toLeave);
  }

  async memberLeaveIn(guildId: string, memberId: string, from: number, to: number): Promise<MemberLeave[]> {
    return (await this.runner.read(this.sql.memberLeaveIn, [guildId, memberId, from, to])).map(toLeave);
  }

  async noteRoleHolder(guildId: string, holder: LeaveRoleHolder): Promise<void> {
    const { number, memberId, roleId, givenAt } = holder;
    await this.runner.write([{ sql: this.sql.noteRoleHolder, params: [guildId, number, memberId, roleId, givenAt] }]);
  }

  async roleHolderOf(guildId: string, number: number): Promise<LeaveRoleHolder | undefined> {
    const [row] = await this.runner.read(this.sql.roleHolderOf, [guildId, number]);
    return row && { number: row.number, memberId: row.member_id, roleId: row.role_id, givenAt: row.given_at };
  }

  async forgetRoleHolder(guildId: string, number: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.forgetRoleHolder, params: [guildId, number] }]);
  }

  async setReducedQuota(guildId: string, roleId: string, hours: number | null): Promise<void> {
    await this.runner.write([
      hours === null
        ? { sql: this.sql.clearReducedQuota, params: [guildId, roleId] }
        : { sql: this.sql.setReducedQuota, params: [guildId, roleId, hours] },
    ]);
  }

  async reducedQuotasOf(guildId: string): Promise<Map<string, number>> {
    const rows = await this.runner.read(this.sql.reducedQuotasOf, [guildId]);
    return new Map(rows.map((row) => [row.role_id, row.hours]));
  }

  sweep(before: number): Promise<number> {
    return sweepInSlices((limit) => this.runner.write([{ sql: this.sql.sweep, params: [before, limit] }]));
  }
}

function toRequest(row: RequestRow): LeaveRequest {
  return {
    guildId: row.guild_id,
    number: row.number,
    memberId: row.member_id,
    kind: row.kind,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    plannedEnd: row.planned_end,
    reason: row.reason,
    state: row.state,
    askedAt: row.asked_at,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    card:
      row.card_channel_id === null
        ? null
        : { channelId: row.card_channel_id, messageId: row.card_message_id, askedAt: row.card_asked_at },
    work: row.work,
    tryAt: row.try_at,
    failures: row.failures,
  };
}

function toLeave(row: LeaveRow): MemberLeave {
  return {
    memberId: row.member_id,
    number: row.number,
    kind: row.kind,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
  };
}
