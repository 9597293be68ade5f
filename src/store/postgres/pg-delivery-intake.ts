import type pg from 'pg';

import { tellsRecord } from '../../upstream/record-update.js';
import { dedupeKeyOf } from '../dedupe-key.js';
import type { AcceptOptions, AcceptOutcome, DeliveryState, NewDelivery } from '../deliveries.js';
import type { DeliveryIntake, EntryCounts } from '../delivery-intake.js';
import { placementOf, type Placement } from '../placement.js';
import { channelOf, resolveRoute } from '../routing-rules.js';
import { PgAcceptBatcher, type AcceptItem } from './pg-accept-batcher.js';
import { PgBrokenChannels } from './pg-broken-channels.js';
import type { PostgresGuildSettings } from './pg-guild-settings.js';
import { rowsOf, SQL } from './pg-sql.js';

/** How many times an accept placed by premises that changed meanwhile is placed again before giving up. */
const STALE_RETRIES = 5;

/**
 * The intake's side of the PostgreSQL queue. Every guarantee comes from the engine: the unique key dedupes
 * concurrent copies on any number of processes (`INSERT … ON CONFLICT DO NOTHING` inside bridge_accept_placed),
 * the guild's advisory transaction lock makes a guild's order its commit order, and NOTIFY announces work at
 * commit.
 */
export class PostgresDeliveryIntake implements DeliveryIntake {
  private readonly batcher: PgAcceptBatcher;
  private readonly broken: PgBrokenChannels;

  constructor(
    private readonly pool: pg.Pool,
    private readonly guilds: PostgresGuildSettings,
  ) {
    this.batcher = new PgAcceptBatcher(pool);
    this.broken = new PgBrokenChannels(pool);
  }

  async accept(delivery: NewDelivery, options: AcceptOptions = {}): Promise<AcceptOutcome> {
    for (let attempt = 0; attempt <= STALE_RETRIES; attempt += 1) {
      // Placed by the cached settings and broken channels; bridge_accept_placed answers 'stale' if either changed.
      const fresh = attempt > 0;
      const { settings, version } = await this.guilds.versioned(delivery.guildId, fresh);
      const route = resolveRoute(settings, delivery);
      const channelId = channelOf(route);
      const brokenSeen = channelId === undefined ? undefined : await this.broken.reasonOf(channelId, fresh);
      const place = placementOf(route, brokenSeen, delivery.receivedAt);
      const outcome = await this.batcher.accept(acceptItemOf(delivery, place, version, brokenSeen, options));
      if (outcome !== 'stale') return outcome;
    }
    throw new Error('the guild settings or the channel kept changing while a delivery was placed');
  }

  async stateOf(hookId: string, deliveryId: string): Promise<DeliveryState | undefined> {
    return (await rowsOf(this.pool, SQL.stateOf, [hookId, dedupeKeyOf(deliveryId)]))[0]?.state;
  }

  async countOpen(): Promise<number> {
    return (await rowsOf(this.pool, SQL.countOpen, []))[0]?.n ?? 0;
  }

  async countByState(): Promise<EntryCounts> {
    return (await rowsOf(this.pool, SQL.countByState, []))[0] ?? { waiting: 0, held: 0, muted: 0 };
  }

  async oldestWaitingAt(): Promise<number | undefined> {
    return (await rowsOf(this.pool, SQL.oldestWaiting, []))[0]?.at;
  }
}

/** The item bridge_accept_placed stores for a placed delivery: what is null is left out (see AcceptItem). */
function acceptItemOf(
  delivery: NewDelivery,
  place: Placement,
  version: number,
  brokenSeen: string | undefined,
  options: AcceptOptions,
): AcceptItem {
  const item: AcceptItem = {
    hookId: delivery.hookId,
    deliveryId: dedupeKeyOf(delivery.deliveryId),
    guildId: delivery.guildId,
    event: delivery.event,
    receivedAt: delivery.receivedAt,
    version,
    state: place.state,
    muted: place.muted,
    requireHook: options.requireHook ?? false,
  };
  const unrecorded = tellsRecord(delivery.event);
  if (place.keepsBody || unrecorded) item.rawBody = delivery.rawBody;
  if (unrecorded) item.unrecorded = 1;
  if (place.channelId !== null) item.channelId = place.channelId;
  if (place.parkKind !== null) item.parkKind = place.parkKind;
  if (place.parkDetail !== null) item.parkDetail = place.parkDetail;
  if (place.parkedAt !== null) item.parkedAt = place.parkedAt;
  if (place.postedAt !== null) item.postedAt = place.postedAt;
  if (brokenSeen !== undefined) item.brokenSeen = brokenSeen;
  if (delivery.server !== undefined) item.server = delivery.server;
  if (delivery.caseType !== undefined) item.caseType = delivery.caseType;
  return item;
}
