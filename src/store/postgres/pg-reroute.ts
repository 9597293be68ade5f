import type pg from 'pg';

import { routingKeysOf, type RoutingRow } from '../delivery-rows.js';
import type { GuildSettings } from '../guild-settings.js';
import { placementOf } from '../placement.js';
import { resolveRoute } from '../routing-rules.js';
import { notify } from './pg-signals.js';

/** Entries a settings change may move: waiting and not written down, or parked for want of a usable channel. */
const MOVABLE = `((state = 'waiting' AND claim_nonce IS NULL) OR (state = 'parked' AND park_kind IN ('unrouted', 'broken')))`;

/**
 * Routes the guild's movable entries again by `settings`, inside the settings change's transaction (which holds
 * the guild's lock): one statement per (event, server, case type), whatever the backlog. Entries an `off` rule
 * now covers are muted (stored as posted, counted). The guild's broken channels are tried again.
 * The lanes with work and the cache invalidation are announced at commit.
 */
export async function rerouteGuild(
  client: pg.ClientBase,
  guildId: string,
  settings: GuildSettings,
  now: number,
): Promise<void> {
  await client.query(
    `UPDATE channel_state SET broken_status = NULL, broken_reason = NULL, broken_since = NULL, failures = 0,
       retry_at = NULL WHERE guild_id = $1 AND broken_status IS NOT NULL`,
    [guildId],
  );
  // One statement per (event, server, case type) the guild has open: what the rules can tell apart.
  const { rows: groups } = await client.query<RoutingRow>(
    `SELECT DISTINCT event, server, case_type FROM delivery WHERE guild_id = $1 AND state IN ('waiting', 'parked')`,
    [guildId],
  );
  for (const group of groups) {
    // The guild's broken channels were cleared above: every route is tried again.
    const place = placementOf(resolveRoute(settings, routingKeysOf(group)), undefined, now);
    await client.query(
      `UPDATE delivery SET state = $1, channel_id = $2, park_kind = $3, park_detail = $4, parked_at = $5,
         posted_at = $6, muted = $7, raw_body = CASE WHEN $8 THEN raw_body END
       WHERE guild_id = $9 AND event = $10 AND server IS NOT DISTINCT FROM $11
         AND case_type IS NOT DISTINCT FROM $12 AND ${MOVABLE}`,
      [
        place.state,
        place.channelId,
        place.parkKind,
        place.parkDetail,
        place.parkedAt,
        place.postedAt,
        place.muted,
        place.keepsBody,
        guildId,
        group.event,
        group.server,
        group.case_type,
      ],
    );
  }
  const { rows: lanes } = await client.query<{ channel_id: string }>(
    `SELECT DISTINCT channel_id FROM delivery WHERE guild_id = $1 AND state = 'waiting'`,
    [guildId],
  );
  await notify(client, { kind: 'settings-changed', guildId });
  for (const lane of lanes) await notify(client, { kind: 'work', channelId: lane.channel_id, guildId, at: now });
}
