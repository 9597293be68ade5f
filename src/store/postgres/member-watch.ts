import pg from 'pg';

import type { Logger } from '../../base/logger.js';

/**
 * Waits, on a connection of its own, for another feed process's member lock (lease-session.ts): the server grants
 * it the moment that process's session ends (killed, crashed, cut off by idle_session_timeout), so this process
 * hears of the death at once rather than at its next rebalance. One connection waits on one lock: each process
 * watches the next member after it (lease-session.ts's ring of slots), and the first to hear tells the others
 * (pg-leases.ts NOTIFYs). The rebalance says which slot to watch; a change cancels the wait under way.
 */
export class MemberWatch {
  private client: pg.Client | undefined;
  /** The server process of `client` (what pg_cancel_backend takes). */
  private backendPid: number | undefined;
  private target: number | undefined;
  /** The slot the statement under way waits for, if one is under way. */
  private waitingFor: number | undefined;
  private loop: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly memberClass: number,
    /** Told the slot whose process just ended. */
    private readonly onGone: (slot: number) => void,
    private readonly logger: Logger,
  ) {}

  /**
   * Watch this slot (undefined: none, this process is alone). `cancel` ends the wait under way (on another
   * connection: pg_cancel_backend) when it waits for another slot.
   */
  async watch(slot: number | undefined, cancel: (backendPid: number) => Promise<void>): Promise<void> {
    if (this.stopped) return;
    this.target = slot;
    // Asked again at every rebalance: a cancel that reached the server before the wait began is sent again.
    const pid = this.backendPid;
    if (this.waitingFor !== undefined && this.waitingFor !== slot && pid !== undefined) await cancel(pid);
    if (slot !== undefined) this.loop ??= this.run().finally(() => (this.loop = undefined));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.target = undefined;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
    await this.loop;
  }

  /** Waits for the target's lock until there is no target; the lock is let go in the same statement. */
  private async run(): Promise<void> {
    while (!this.stopped && this.target !== undefined) {
      const slot = this.target;
      try {
        const client = await this.connect();
        // The same turn as the query below: a change of target from here on sees the wait and cancels it.
        if (this.target !== slot) continue;
        this.waitingFor = slot;
        // OFFSET 0 keeps the inner SELECT apart: the lock is granted (its holder gone), then let go at once, so the
        // others never count this connection as a member.
        await client.query(
          'SELECT pg_advisory_unlock($1, $2) FROM (SELECT pg_advisory_lock($1, $2) OFFSET 0) AS granted',
          [this.memberClass, slot],
        );
        this.waitingFor = undefined;
        if (this.target === slot) {
          this.target = undefined;
          this.onGone(slot);
        }
      } catch (error) {
        this.waitingFor = undefined;
        if (this.stopped) return;
        // A cancel (the target changed) is expected; anything else drops the connection, made again next time.
        if (!isCancel(error)) {
          this.logger.warn(
            { err: { message: error instanceof Error ? error.message : String(error) } },
            'the feed member watch failed; the rebalance timer stands in for it',
          );
          const client = this.client;
          this.client = undefined;
          this.backendPid = undefined;
          await client?.end().catch(() => undefined);
          this.target = undefined;
          return;
        }
      }
    }
  }

  private async connect(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client(this.config);
    // Surfaces on the wait under way, which then reconnects; the process must not crash here.
    client.on('error', () => undefined);
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      this.backendPid = rows[0]?.pid;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }
}

/** 57014, query_canceled: pg_cancel_backend ended the wait. */
function isCancel(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '57014';
}
