import pg from 'pg';

import type { Logger } from '../../base/logger.js';
import { LocalSignals, type StoreSignal } from '../signals.js';

/** A pool or a connection: anything that runs a query. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** The channel every bot process LISTENs on. */
export const SIGNAL_CHANNEL = 'bridge';

/** Sends `signal` to every process (delivered when the caller's transaction commits, or at once outside one). */
export async function notify(client: Queryable, signal: StoreSignal): Promise<void> {
  await client.query('SELECT pg_notify($1, $2)', [SIGNAL_CHANNEL, JSON.stringify(signal)]);
}

/**
 * The store's signals through LISTEN/NOTIFY: one connection of its own LISTENs, and every notification is
 * handed to this process's subscribers. If the connection drops it is made again, with backoff, and a `resync`
 * signal tells subscribers that they may have missed some (the feed then reads the store again).
 */
export class PostgresSignals extends LocalSignals {
  private client: pg.Client | undefined;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly logger: Logger | undefined,
  ) {
    super();
  }

  /** Connects and LISTENs; resolves once notifications flow. */
  async start(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on('notification', (message) => {
      if (message.channel !== SIGNAL_CHANNEL || message.payload === undefined) return;
      try {
        this.publish(JSON.parse(message.payload) as StoreSignal);
      } catch (error) {
        this.logger?.warn({ err: error }, 'an unreadable store signal was ignored');
      }
    });
    const lost = (reason: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.logger?.warn({ reason }, 'the store signal connection was lost; reconnecting');
      void client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('connection ended'));
    await client.connect();
    await client.query(`LISTEN ${SIGNAL_CHANNEL}`);
    this.client = client;
    this.failures = 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer !== undefined) return;
    this.failures += 1;
    const delay = Math.min(10_000, 250 * 2 ** Math.min(this.failures, 6));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.start().then(
        () => this.publish({ kind: 'resync' }),
        () => this.scheduleReconnect(),
      );
    }, delay);
    this.retryTimer.unref();
  }
}
