import { setAsideStatements, type SetAsideRow, type SetAsideStatements } from './set-aside-statements.js';
import {
  nextTryAt,
  reasonOf,
  SET_ASIDE_JOB_NAMES,
  type SetAsideItem,
  type SetAsideJob,
  type SetAsideStore,
} from './set-aside.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlRunner, SqlWrite } from './sql-runner.js';

/** An item about to be set aside: which, whose, and what /status calls it. */
export interface ItemToSetAside {
  job: SetAsideJob;
  item: string;
  guildId: string | null;
  label: string;
}

/**
 * The items set aside, on either engine: what /status and /metrics read and the host's retry at once, and, for the
 * jobs themselves, the writes that set an item aside (run in one transaction with the job's own) and the items due.
 */
export class SqlSetAside implements SetAsideStore {
  private readonly sql: SetAsideStatements;

  constructor(
    d: SqlDialect,
    private readonly runner: SqlRunner,
  ) {
    this.sql = setAsideStatements(d);
  }

  async listForGuild(guildId: string, limit: number): Promise<SetAsideItem[]> {
    return (await this.runner.read(this.sql.ofGuild, [guildId, limit])).map(toItem);
  }

  async list(limit: number): Promise<SetAsideItem[]> {
    return (await this.runner.read(this.sql.all, [limit])).map(toItem);
  }

  async countByJob(): Promise<Record<SetAsideJob, number>> {
    const counts = Object.fromEntries(SET_ASIDE_JOB_NAMES.map((job) => [job, 0])) as Record<SetAsideJob, number>;
    for (const { job, n } of await this.runner.read(this.sql.countByJob, [])) {
      if (job in counts) counts[job as SetAsideJob] = Number(n);
    }
    return counts;
  }

  async retryNow(now: number, job?: SetAsideJob): Promise<number> {
    // The sweep finds its guilds by their due time, not by the items' (see sweepNow).
    if (job === undefined || job === 'record-sweep')
      await this.runner.write([{ sql: this.sql.sweepNow, params: [now] }]);
    return this.runner.write([
      job === undefined
        ? { sql: this.sql.retryAll, params: [now, now] }
        : { sql: this.sql.retryJob, params: [now, job, now] },
    ]);
  }

  /** The job's items whose next try is due at `now`, the longest due first. */
  async due(job: SetAsideJob, now: number, limit: number): Promise<SetAsideItem[]> {
    return (await this.runner.read(this.sql.due, [job, now, limit])).map(toItem);
  }

  /**
   * What setting `entry` aside (again) after `error` at `now` writes: one failed try more, the reason, the next
   * try after the job's backoff. Also when it is tried next, and since when it has been set aside.
   */
  async setAsideWrite(
    entry: ItemToSetAside,
    error: unknown,
    now: number,
  ): Promise<{ write: SqlWrite; retryAt: number; since: number }> {
    const [tries] = await this.runner.read(this.sql.triesOf, [entry.job, entry.item]);
    const since = tries?.since ?? now;
    const retryAt = nextTryAt(entry.job, (tries?.attempts ?? 0) + 1, now);
    const params = [entry.job, entry.item, entry.guildId, entry.label, reasonOf(error), since, retryAt];
    return { write: { sql: this.sql.setAside, params }, retryAt, since };
  }

  /** What clearing an item (done, or gone) writes. */
  clearWrite(job: SetAsideJob, item: string): SqlWrite {
    return { sql: this.sql.clear, params: [job, item] };
  }
}

function toItem(row: SetAsideRow): SetAsideItem {
  return {
    job: row.job as SetAsideJob,
    item: row.item,
    guildId: row.guild_id,
    label: row.label,
    reason: row.reason,
    attempts: row.attempts,
    since: row.since,
    retryAt: row.retry_at,
  };
}
