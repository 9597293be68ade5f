import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner } from '../../../store/sql-runner.js';
import { sweepInSlices } from '../../../store/sweep-in-slices.js';
import { TableCopy } from '../../../store/table-copy.js';
import type { DigestScheduleTable } from '../../../store/tables.js';
import { digestStatements } from './digest-statements.js';
import type { Digests, DigestSchedule, DigestTake, Quota, StoredDigestSchedule } from './digests.js';

/** The quotas' and digests' tables, by their keys: what migrate-store copies and forgetting a guild empties. */
export const DIGEST_TABLES = [
  { table: 'duty_quota', key: ['guild_id', 'role_id'] },
  { table: 'digest_schedule', key: ['guild_id'] },
  { table: 'digest_post', key: ['guild_id', 'period_end'] },
] as const;

/** Quotas and the weekly digest on either engine, over the store's SQL runner. */
export class SqlDigests implements Digests {
  private readonly sql: ReturnType<typeof digestStatements>;
  /** migrate-store: the tables as they are. */
  readonly rows: TableCopy;

  constructor(
    d: SqlDialect,
    private readonly runner: SqlRunner,
  ) {
    this.sql = digestStatements(d);
    this.rows = new TableCopy(d, runner, DIGEST_TABLES);
  }

  async setQuota(guildId: string, quota: Quota): Promise<void> {
    await this.runner.write([{ sql: this.sql.setQuota, params: [guildId, quota.roleId, quota.hours, quota.per] }]);
  }

  async clearQuota(guildId: string, roleId: string): Promise<boolean> {
    return (await this.runner.write([{ sql: this.sql.clearQuota, params: [guildId, roleId] }])) > 0;
  }

  async quotasOf(guildId: string): Promise<Quota[]> {
    const rows = await this.runner.read(this.sql.quotasOf, [guildId]);
    return rows.map((row) => ({ roleId: row.role_id, hours: row.hours, per: row.per }));
  }

  async setSchedule(schedule: DigestSchedule): Promise<void> {
    const { guildId, channelId, weekday, hour, timeZone, nextAt } = schedule;
    await this.runner.write([
      { sql: this.sql.setSchedule, params: [guildId, channelId, weekday, hour, timeZone, nextAt, nextAt] },
    ]);
  }

  async clearSchedule(guildId: string): Promise<boolean> {
    return (await this.runner.write([{ sql: this.sql.clearSchedule, params: [guildId] }])) > 0;
  }

  async scheduleOf(guildId: string): Promise<StoredDigestSchedule | undefined> {
    const [row] = await this.runner.read(this.sql.scheduleOf, [guildId]);
    return row && scheduleOf(row);
  }

  async dueSchedules(now: number, limit: number): Promise<StoredDigestSchedule[]> {
    return (await this.runner.read(this.sql.dueSchedules, [now, limit])).map(scheduleOf);
  }

  async advanceSchedule(guildId: string, from: number, to: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.advanceSchedule, params: [to, to, guildId, from] }]);
  }

  async backOffSchedule(guildId: string, from: number, tryAt: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.backOffSchedule, params: [tryAt, guildId, from] }]);
  }

  async takePost(
    guildId: string,
    periodEnd: number,
    channelId: string,
    now: number,
    staleBefore: number,
  ): Promise<DigestTake> {
    const inserted = await this.runner.write([
      { sql: this.sql.insertPost, params: [guildId, periodEnd, channelId, now] },
    ]);
    if (inserted > 0) return { kind: 'taken', askedBefore: undefined };
    const [post] = await this.runner.read(this.sql.postOf, [guildId, periodEnd]);
    if (!post) return { kind: 'busy' };
    if (post.message_id !== null) return { kind: 'posted', messageId: post.message_id };
    if (post.asked_at >= staleBefore) return { kind: 'busy' };
    const retaken = await this.runner.write([
      { sql: this.sql.retakePost, params: [now, guildId, periodEnd, post.asked_at] },
    ]);
    return retaken > 0 ? { kind: 'taken', askedBefore: post.asked_at } : { kind: 'busy' };
  }

  async markPosted(guildId: string, periodEnd: number, messageId: string, now: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.markPosted, params: [messageId, now, guildId, periodEnd] }]);
  }

  sweepPosts(before: number): Promise<number> {
    return sweepInSlices((limit) => this.runner.write([{ sql: this.sql.sweepPosts, params: [before, limit] }]));
  }
}

function scheduleOf(row: DigestScheduleTable): StoredDigestSchedule {
  return {
    guildId: row.guild_id,
    channelId: row.channel_id,
    weekday: row.weekday,
    hour: row.hour,
    timeZone: row.time_zone,
    nextAt: row.next_at,
    failures: row.failures,
    tryAt: row.try_at,
  };
}
