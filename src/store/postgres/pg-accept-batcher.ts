import type pg from 'pg';

import type { AcceptOutcome, DeliveryState, HeldKind } from '../deliveries.js';

/**
 * One delivery as bridge_accept_placed takes it: placed (placement.ts), with what the placement assumed: the
 * settings version it was routed with, and its channel's broken state. A field that would be null is left out:
 * the function reads a missing key as NULL, and most deliveries wait in a lane with nothing else to say, so the
 * intake's hot path serializes and sends only what a delivery has.
 */
export interface AcceptItem {
  hookId: string;
  deliveryId: string;
  guildId: string;
  event: string;
  receivedAt: number;
  version: number;
  state: DeliveryState;
  muted: boolean;
  /** Stored only if its hook is (AcceptOptions.requireHook); else answered 'unknown-hook'. */
  requireHook: boolean;
  /** Absent when the placement drops the body (muted), unless the community record's writer is to read it. */
  rawBody?: string;
  channelId?: string;
  parkKind?: HeldKind;
  parkDetail?: string;
  parkedAt?: number;
  postedAt?: number;
  /** The broken reason of `channelId` the placement saw; absent while the channel was not marked broken. */
  brokenSeen?: string;
  server?: string;
  caseType?: string;
  /** 1 while the community record's writer has not read it (its body is then sent even when muted). */
  unrecorded?: 1;
}

/** 'stale': the guild's settings or the channel's broken state changed since the item was placed; place it again. */
export type ItemOutcome = AcceptOutcome | 'stale';

/** Most deliveries in one batch, and most body bytes (a body may be up to 1 MiB). */
const MAX_ITEMS = 200;
const MAX_BODY_CHARS = 4 * 1024 * 1024;

/**
 * One batch in one statement. bridge_accept_placed takes the guilds' locks, then reads which hooks of the items
 * that require theirs are still stored: a removal (hooks.remove, forgetGuild) holds the same lock until it
 * commits, so once it has committed no process stores a delivery of that hook, whatever its cache holds.
 */
const ACCEPT_BATCH_SQL = 'SELECT bridge_accept_placed($1::jsonb) AS outcomes';

/** Batches in flight at once: more lets several guilds' batches commit side by side on the pool. */
const MAX_IN_FLIGHT = 2;

interface Pending {
  item: AcceptItem;
  resolve: (outcome: ItemOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the intake on PostgreSQL: the accepts that arrive while earlier ones are in flight go
 * together in one bridge_accept_placed call, so a burst pays one round trip, one transaction and one commit (one
 * WAL flush with `synchronous_commit=on`) per batch instead of per delivery. Nothing waits on a timer: a lone
 * delivery goes at once. Each caller still hears only after the commit that stored its delivery.
 */
export class PgAcceptBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  /** Guilds with a batch in flight: their accepts wait for the next batch (see take). */
  private readonly busy = new Set<string>();

  constructor(private readonly pool: pg.Pool) {}

  accept(item: AcceptItem): Promise<ItemOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT) {
      const batch = this.take();
      if (batch.length === 0) return;
      const guilds = new Set(batch.map((pending) => pending.item.guildId));
      for (const guildId of guilds) this.busy.add(guildId);
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        for (const guildId of guilds) this.busy.delete(guildId);
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  /**
   * The oldest waiting accepts of the guilds that have no batch in flight, as many as fit one batch, each
   * guild's in the order they came. A guild's batches are stored one after another anyway (each takes the
   * guild's lock): a second one sent meanwhile would only wait in the database, holding a connection, with the
   * accepts that could have joined the next batch. Batches twice as large share their round trip, transaction
   * and commit between twice as many deliveries: the database's work per delivery fell by a third.
   */
  private take(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    let chars = 0;
    let full = false;
    for (const pending of this.queue) {
      if (full || this.busy.has(pending.item.guildId)) {
        rest.push(pending);
        continue;
      }
      const size = pending.item.rawBody?.length ?? 0;
      // Closed at the first accept that does not fit, so no later one of its guild goes ahead of it.
      if (batch.length > 0 && (batch.length === MAX_ITEMS || chars + size > MAX_BODY_CHARS)) {
        full = true;
        rest.push(pending);
        continue;
      }
      batch.push(pending);
      chars += size;
    }
    this.queue = rest;
    return batch;
  }

  private async run(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.send(batch.map((pending) => pending.item));
      batch.forEach((pending, i) => pending.resolve(outcomes[i] ?? 'stale'));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // The transaction stored none of them: each goes again alone, so a failure is only its own item's.
      await Promise.all(batch.map((pending) => this.run([pending])));
    }
  }

  private async send(items: AcceptItem[]): Promise<ItemOutcome[]> {
    const { rows } = await this.pool.query<{ outcomes: ItemOutcome[] }>(ACCEPT_BATCH_SQL, [JSON.stringify(items)]);
    const outcomes = rows[0]?.outcomes ?? [];
    if (outcomes.length !== items.length) throw new Error(`bridge_accept_placed answered ${outcomes.length} outcomes`);
    return outcomes;
  }
}
