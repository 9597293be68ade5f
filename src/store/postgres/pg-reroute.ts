import type pg from 'pg';

import { resolveRoute } from '../../feed/route.js';
import type { GuildSettings } from '../guild-settings.js';
import { notify } from './pg-signals.js';

/** Entries a settings change may move: waiting and not written down, or parked for want of a usable channel. */
const MOVABLE = `((state = 'waiting' AND claim_nonce IS NULL) OR (state = 'parked' AND park_kind IN ('unrouted', 'broken')))`;

/**
 * Routes the guild's movable entries again by `settings`, inside the settings change's transaction (which holds
 * the guild's lock): one statement per event, whatever the backlog. The guild's broken channels are tried again.
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
  const { rows: events } = await client.query<{ event: string }>(
    `SELECT DISTINCT event FROM delivery WHERE guild_id = $1 AND state IN ('waiting', 'parked')`,
    [guildId],
  );
  for (const { event } of events) {
    const route = resolveRoute(settings, event);
    if (route) {
      await client.query(
        `UPDATE delivery SET state = 'waiting', channel_id = $1, park_kind = NULL, park_detail = NULL, parked_at = NULL
         WHERE guild_id = $2 AND event = $3 AND ${MOVABLE}`,
        [route.channelId, guildId, event],
      );
    } else {
      await client.query(
        `UPDATE delivery SET state = 'parked', channel_id = NULL, park_kind = 'unrouted', park_detail = '',
           parked_at = $1 WHERE guild_id = $2 AND event = $3 AND ${MOVABLE}`,
        [now, guildId, event],
      );
    }
  }
  const { rows: lanes } = await client.query<{ channel_id: string }>(
    `SELECT DISTINCT channel_id FROM delivery WHERE guild_id = $1 AND state = 'waiting'`,
    [guildId],
  );
  await notify(client, { kind: 'settings-changed', guildId });
  for (const lane of lanes) await notify(client, { kind: 'work', channelId: lane.channel_id, guildId, at: now });
}
