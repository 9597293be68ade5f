import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express, { type Request } from 'express';
import pg from 'pg';

import { listen } from '../../src/http-server.js';
import { BENCH_SECRET } from './delivery.js';
import type { RunningServer } from './running-server.js';

/**
 * The intake's durable peers: what a host would write by hand to take the service's deliveries durably, without
 * the bot. A plain Express 5 route that reads the body with `express.raw`, verifies the HMAC the way the service's
 * documentation says (upstream-api.md §5.8: a `createHmac` per request with the secret, the lengths compared, then
 * `timingSafeEqual`; the timestamp within 300 s), parses the JSON, inserts one row per request (the delivery id
 * unique per hook, so a retry of the service is not stored twice) and answers 204 once the insert has committed.
 * Nothing is batched, cached or deferred: each request is its own transaction, as a hand-written handler's insert is.
 */

/** The table both peers write: one row per delivery, the body kept as received. */
const TABLE = `CREATE TABLE peer_delivery (
  hook_id text NOT NULL,
  delivery_id text NOT NULL,
  event text NOT NULL,
  body text NOT NULL,
  received_at bigint NOT NULL,
  PRIMARY KEY (hook_id, delivery_id)
)`;

interface Delivery {
  hookId: string;
  deliveryId: string;
  event: string;
  body: string;
  receivedAt: number;
}

/** Verifies and parses the request as a hand-written handler would; the status of a refusal otherwise. */
function readDelivery(req: Request): Delivery | 400 | 401 {
  const body = req.body as unknown;
  if (!Buffer.isBuffer(body)) return 400;
  const timestamp = req.get('x-service-timestamp') ?? '';
  const signature = Buffer.from(req.get('x-service-signature') ?? '');
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', BENCH_SECRET).update(`${timestamp}.`).update(body).digest('hex')}`,
  );
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return 401;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) >= 300) return 401;
  const text = body.toString('utf8');
  let parsed: { id?: unknown; event?: unknown };
  try {
    parsed = JSON.parse(text) as { id?: unknown; event?: unknown };
  } catch {
    return 400;
  }
  if (typeof parsed.id !== 'string' || typeof parsed.event !== 'string') return 400;
  return {
    hookId: String(req.params.hookId),
    deliveryId: parsed.id,
    event: parsed.event,
    body: text,
    receivedAt: Date.now(),
  };
}

/** Serves `insert` behind the hand-written route; counts the rows it stored. */
async function serveInserts(
  insert: (delivery: Delivery) => Promise<boolean> | boolean,
  close: () => Promise<void> | void,
): Promise<RunningServer> {
  let stored = 0;
  const app = express();
  app.post('/webhooks/:hookId', express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
    const delivery = readDelivery(req);
    if (typeof delivery === 'number') {
      res.status(delivery).end();
      return;
    }
    if (await insert(delivery)) stored += 1;
    res.status(204).end();
  });
  const http = await listen(app, 0, '127.0.0.1');
  return {
    url: http.url,
    path: `/webhooks/${randomBytes(16).toString('hex')}`,
    handled: () => stored,
    async stop() {
      await http.close();
      await close();
    },
  };
}

/**
 * `express-sqlite`: better-sqlite3 on a file of its own, WAL (better-sqlite3's README recommends it) and
 * `synchronous=FULL` (the log synced at every commit: an answered delivery survives a crash of the machine, as
 * the bot's does), one autocommitted `INSERT OR IGNORE` per request.
 */
export async function startSqlitePeer(): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-peer-'));
  const db = new Database(join(dir, 'peer.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(TABLE);
  const insert = db.prepare(
    'INSERT OR IGNORE INTO peer_delivery (hook_id, delivery_id, event, body, received_at) VALUES (?, ?, ?, ?, ?)',
  );
  return serveInserts(
    (d) => insert.run(d.hookId, d.deliveryId, d.event, d.body, d.receivedAt).changes === 1,
    () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  );
}

/**
 * `express-verify`: the same hand-written route storing nothing (each delivery counted as stored): the work a host's
 * route does before its write (the body read, the HMAC, the JSON), the peer of the bot's HTTP path alone
 * (`bot-without-write`).
 */
export function startVerifyingPeer(): Promise<RunningServer> {
  return serveInserts(
    () => true,
    () => {},
  );
}

/**
 * `express-pg`: node-postgres's Pool (its default of 10 connections, one per connection of the load) on the
 * database given, one autocommitted `INSERT … ON CONFLICT DO NOTHING` per request.
 */
export async function startPostgresPeer(storeUrl: string): Promise<RunningServer> {
  const pool = new pg.Pool({ connectionString: storeUrl });
  // A table of its own beside the bot's (`pg` shares the measurement's database).
  await pool.query(TABLE);
  const sql =
    'INSERT INTO peer_delivery (hook_id, delivery_id, event, body, received_at) VALUES ($1, $2, $3, $4, $5) ' +
    'ON CONFLICT DO NOTHING';
  return serveInserts(
    async (d) => (await pool.query(sql, [d.hookId, d.deliveryId, d.event, d.body, d.receivedAt])).rowCount === 1,
    () => pool.end(),
  );
}
