import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner } from '../../../store/sql-runner.js';
import { columns, type RowOf } from '../../../store/table-columns.js';
import type {
  NewReplayRun,
  ReplayedEvent,
  ReplayRun,
  ReplaySource,
  ReplayStore,
  WrittenReplay,
} from './replay-store.js';

const RUN = columns(
  'replay_run',
  'run_id',
  'guild_id',
  'channel_id',
  'since_at',
  'up_to_seq',
  'cursor_seq',
  'started_by',
  'started_at',
  'ended_at',
  'posted',
  'failure',
  'written_nonce',
  'written_message',
  'written_at',
  'written_up_to',
);
const POST = columns(
  'replay_post',
  'channel_id',
  'hook_id',
  'delivery_id',
  'guild_id',
  'run_id',
  'nonce',
  'received_at',
  'posted_at',
);
const SOURCE = columns(
  'delivery',
  'seq',
  'hook_id',
  'delivery_id',
  'guild_id',
  'event',
  'server',
  'case_type',
  'received_at',
  'raw_body',
  'channel_id',
  'muted',
);

/** The replay feature's statements, written once for both engines. */
function replayStatements(d: SqlDialect) {
  return {
    insertRun: d.sql<never, [string, string, string, number, number, string, number]>(
      `INSERT INTO replay_run (run_id, guild_id, channel_id, since_at, up_to_seq, cursor_seq, started_by, started_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    runOf: d.select(RUN).from<[string]>('replay_run WHERE run_id = ?'),
    runningIn: d.select(RUN).from<[string]>('replay_run WHERE channel_id = ? AND ended_at IS NULL'),
    running: d.select(RUN).from<[]>('replay_run WHERE ended_at IS NULL ORDER BY started_at'),
    allRuns: d.select(RUN).from<[]>('replay_run ORDER BY started_at'),
    allPosts: d.select(POST).from<[]>('replay_post ORDER BY received_at'),
    latestSeq: d.sql<{ seq: number | null }, []>('SELECT max(seq) AS seq FROM delivery'),
    // By the guild's posted deliveries in store order (delivery_replay_source), past the cursor.
    sources: d.select(SOURCE).from<[string, number, number, number, string, number]>(
      `delivery WHERE guild_id = ? AND state = 'posted' AND seq > ? AND seq <= ? AND received_at >= ?
         AND raw_body IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM replay_post p WHERE p.channel_id = ? AND p.hook_id = delivery.hook_id
                           AND p.delivery_id = delivery.delivery_id)
       ORDER BY seq LIMIT ?`,
    ),
    advance: d.sql<never, [number, string, number]>(
      'UPDATE replay_run SET cursor_seq = ? WHERE run_id = ? AND written_nonce IS NULL AND cursor_seq < ?',
    ),
    // The guard: the run has nothing written down and is where the runner read it.
    unwritten: d.sql<{ run_id: string }, [string, number]>(
      `SELECT run_id FROM replay_run WHERE run_id = ? AND cursor_seq = ? AND written_nonce IS NULL
         AND ended_at IS NULL${d.forUpdate}`,
    ),
    writeDown: d.sql<never, [string, string, number, number, string, number]>(
      `UPDATE replay_run SET written_nonce = ?, written_message = ?, written_at = ?, written_up_to = ?
       WHERE run_id = ? AND cursor_seq = ? AND written_nonce IS NULL`,
    ),
    insertPost: d.sql<never, [string, string, string, string, string, string, number]>(
      `INSERT INTO replay_post (channel_id, hook_id, delivery_id, guild_id, run_id, nonce, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    confirmRun: d.sql<never, [string, string, string, string]>(
      `UPDATE replay_run SET cursor_seq = written_up_to,
         posted = posted + (SELECT count(*) FROM replay_post p WHERE p.run_id = ? AND p.nonce = ?),
         written_nonce = NULL, written_message = NULL, written_at = NULL, written_up_to = NULL
       WHERE run_id = ? AND written_nonce = ?`,
    ),
    confirmPosts: d.sql<never, [number, string, string]>(
      'UPDATE replay_post SET posted_at = ? WHERE run_id = ? AND nonce = ? AND posted_at IS NULL',
    ),
    endRun: d.sql<never, [number, string | null, string]>(
      `UPDATE replay_run SET ended_at = ?, failure = ?, written_nonce = NULL, written_message = NULL,
         written_at = NULL, written_up_to = NULL WHERE run_id = ? AND ended_at IS NULL`,
    ),
    // What an ended run wrote down and never had confirmed was not posted: those events may be replayed again.
    forgetUnposted: d.sql<never, [string]>('DELETE FROM replay_post WHERE run_id = ? AND posted_at IS NULL'),
    sweepPosts: d.sql<never, [number]>('DELETE FROM replay_post WHERE received_at < ?'),
    sweepRuns: d.sql<never, [number]>('DELETE FROM replay_run WHERE ended_at IS NOT NULL AND ended_at < ?'),
    restoreRun: d.sql(
      `INSERT INTO replay_run (${RUN.text}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    ),
    restorePost: d.sql(`INSERT INTO replay_post (${POST.text}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
  };
}

/** The replay store on either engine, over the store's SQL runner. */
export class SqlReplayStore implements ReplayStore {
  private readonly sql: ReturnType<typeof replayStatements>;

  constructor(
    d: SqlDialect,
    private readonly runner: SqlRunner,
  ) {
    this.sql = replayStatements(d);
  }

  async start(run: NewReplayRun): Promise<{ started: boolean; run: ReplayRun }> {
    const params: [string, string, string, number, number, string, number] = [
      run.runId,
      run.guildId,
      run.channelId,
      run.sinceAt,
      run.upToSeq,
      run.startedBy,
      run.startedAt,
    ];
    const inserted = await this.runner.write([{ sql: this.sql.insertRun, params }]);
    const running = inserted > 0 ? await this.runOf(run.runId) : await this.runningIn(run.channelId);
    if (!running) throw new Error(`replay ${run.runId} is neither stored nor refused by a running one`);
    return { started: inserted > 0, run: running };
  }

  async listRunning(): Promise<ReplayRun[]> {
    return (await this.runner.read(this.sql.running, [])).map(toRun);
  }

  async runOf(runId: string): Promise<ReplayRun | undefined> {
    const [row] = await this.runner.read(this.sql.runOf, [runId]);
    return row ? toRun(row) : undefined;
  }

  async runningIn(channelId: string): Promise<ReplayRun | undefined> {
    const [row] = await this.runner.read(this.sql.runningIn, [channelId]);
    return row ? toRun(row) : undefined;
  }

  async latestSeq(): Promise<number> {
    const [row] = await this.runner.read(this.sql.latestSeq, []);
    return Number(row?.seq ?? 0);
  }

  async sources(run: ReplayRun, limit: number): Promise<ReplaySource[]> {
    const rows = await this.runner.read(this.sql.sources, [
      run.guildId,
      run.cursorSeq,
      run.upToSeq,
      run.sinceAt,
      run.channelId,
      limit,
    ]);
    return rows.map((row) => ({
      seq: Number(row.seq),
      hookId: row.hook_id,
      deliveryId: row.delivery_id,
      guildId: row.guild_id,
      event: row.event,
      ...(row.server === null ? {} : { server: row.server }),
      ...(row.case_type === null ? {} : { caseType: row.case_type }),
      receivedAt: Number(row.received_at),
      rawBody: row.raw_body ?? '',
      channelId: row.channel_id,
      muted: Boolean(row.muted),
    }));
  }

  async advance(runId: string, cursorSeq: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.advance, params: [cursorSeq, runId, cursorSeq] }]);
  }

  async writeDown(run: ReplayRun, written: WrittenReplay, events: readonly ReplayedEvent[]): Promise<boolean> {
    return this.runner.writeIfFound({ sql: this.sql.unwritten, params: [run.runId, run.cursorSeq], rows: 1 }, [
      {
        sql: this.sql.writeDown,
        params: [written.nonce, written.message, written.writtenAt, written.upToSeq, run.runId, run.cursorSeq],
      },
      ...events.map((event) => ({
        sql: this.sql.insertPost,
        params: [
          run.channelId,
          event.hookId,
          event.deliveryId,
          run.guildId,
          run.runId,
          written.nonce,
          event.receivedAt,
        ],
      })),
    ]);
  }

  async confirm(runId: string, nonce: string, postedAt: number): Promise<void> {
    await this.runner.write([
      { sql: this.sql.confirmRun, params: [runId, nonce, runId, nonce] },
      { sql: this.sql.confirmPosts, params: [postedAt, runId, nonce] },
    ]);
  }

  async end(runId: string, at: number, failure: string | null): Promise<void> {
    await this.runner.write([
      { sql: this.sql.endRun, params: [at, failure, runId] },
      { sql: this.sql.forgetUnposted, params: [runId] },
    ]);
  }

  async sweep(before: number, endedBefore: number): Promise<number> {
    return this.runner.write([
      { sql: this.sql.sweepPosts, params: [before] },
      { sql: this.sql.sweepRuns, params: [endedBefore] },
    ]);
  }

  async listAll(): Promise<Awaited<ReturnType<ReplayStore['listAll']>>> {
    const runs = (await this.runner.read(this.sql.allRuns, [])).map(toRun);
    const posts = (await this.runner.read(this.sql.allPosts, [])).map((row) => ({
      channelId: row.channel_id,
      hookId: row.hook_id,
      deliveryId: row.delivery_id,
      guildId: row.guild_id,
      runId: row.run_id,
      nonce: row.nonce,
      receivedAt: Number(row.received_at),
      postedAt: row.posted_at === null ? null : Number(row.posted_at),
    }));
    return { runs, posts };
  }

  async restore(all: Awaited<ReturnType<ReplayStore['listAll']>>): Promise<number> {
    const runs = all.runs.map((run) => ({
      sql: this.sql.restoreRun,
      params: [
        run.runId,
        run.guildId,
        run.channelId,
        run.sinceAt,
        run.upToSeq,
        run.cursorSeq,
        run.startedBy,
        run.startedAt,
        run.endedAt,
        run.posted,
        run.failure,
        run.written?.nonce ?? null,
        run.written?.message ?? null,
        run.written?.writtenAt ?? null,
        run.written?.upToSeq ?? null,
      ],
    }));
    const posts = all.posts.map((post) => ({
      sql: this.sql.restorePost,
      params: [
        post.channelId,
        post.hookId,
        post.deliveryId,
        post.guildId,
        post.runId,
        post.nonce,
        post.receivedAt,
        post.postedAt,
      ],
    }));
    if (runs.length + posts.length > 0) await this.runner.write([...runs, ...posts]);
    return all.runs.length;
  }
}

function toRun(row: RowOf<typeof RUN>): ReplayRun {
  const written =
    row.written_nonce !== null && row.written_message !== null
      ? {
          nonce: row.written_nonce,
          message: row.written_message,
          writtenAt: Number(row.written_at ?? 0),
          upToSeq: Number(row.written_up_to ?? row.cursor_seq),
        }
      : null;
  return {
    runId: row.run_id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    sinceAt: Number(row.since_at),
    upToSeq: Number(row.up_to_seq),
    cursorSeq: Number(row.cursor_seq),
    startedBy: row.started_by,
    startedAt: Number(row.started_at),
    endedAt: row.ended_at === null ? null : Number(row.ended_at),
    posted: Number(row.posted),
    failure: row.failure,
    written,
  };
}
