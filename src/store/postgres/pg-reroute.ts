import type pg from 'pg';

import { routingKeysOf } from '../delivery-rows.js';
import type { GuildSettings } from '../guild-settings.js';
import { placementOf } from '../placement.js';
import { placedValues } from '../queue-statements.js';
import { resolveRoute } from '../routing-rules.js';
import { postgresDialect as d } from '../sql-dialect.js';
import { notify } from './pg-signals.js';
import { changesOf, rowsOf, SQL } from './pg-sql.js';

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
  await changesOf(client, SQL.clearGuildBroken, [guildId]);
  for (const group of await rowsOf(client, SQL.openGroups, [guildId])) {
    // The guild's broken channels were cleared above: every route is tried again.
    const place = placementOf(resolveRoute(settings, routingKeysOf(group)), undefined, now);
    await changesOf(client, SQL.placeGroup, [
      ...placedValues(d, place),
      guildId,
      group.event,
      group.server,
      group.case_type,
    ]);
  }
  const lanes = await rowsOf(client, SQL.guildLanes, [guildId]);
  await notify(client, { kind: 'settings-changed', guildId });
  // A waiting entry always has its channel (placement.ts); the column allows none, so the type asks.
  for (const { channel_id: channelId } of lanes) {
    if (channelId !== null) await notify(client, { kind: 'work', channelId, guildId, at: now });
  }
}
