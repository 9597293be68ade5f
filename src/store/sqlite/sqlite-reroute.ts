import type { Database } from 'better-sqlite3';

import { routingKeysOf } from '../delivery-rows.js';
import type { GuildSettings } from '../guild-settings.js';
import { placementOf } from '../placement.js';
import { placedValues } from '../queue-statements.js';
import { resolveRoute } from '../routing-rules.js';
import { sqliteDialect as d } from '../sql-dialect.js';
import { prepare, SQL } from './sqlite-sql.js';
import type { WriteContext } from './write-batcher.js';

/**
 * Routes a guild's movable entries again when its settings change, inside the change's write: one statement per
 * (event, server, case type), whatever the backlog; entries an `off` rule now covers are muted. The guild's
 * broken channels are tried again. The lanes that have work are announced after the commit.
 */
export class SqliteReroute {
  private readonly statements;

  constructor(
    db: Database,
    private readonly clock: () => number,
  ) {
    this.statements = {
      clearGuildBroken: prepare(db, SQL.clearGuildBroken),
      openGroups: prepare(db, SQL.openGroups),
      placeGroup: prepare(db, SQL.placeGroup),
      guildLanes: prepare(db, SQL.guildLanes),
    };
  }

  reroute(tx: WriteContext, guildId: string, settings: GuildSettings): void {
    const now = this.clock();
    this.statements.clearGuildBroken.run(guildId);
    for (const group of this.statements.openGroups.all(guildId)) {
      // The guild's broken channels were cleared above: every route is tried again.
      const place = placementOf(resolveRoute(settings, routingKeysOf(group)), undefined, now);
      this.statements.placeGroup.run(...placedValues(d, place), guildId, group.event, group.server, group.case_type);
    }
    const lanes = this.statements.guildLanes.all(guildId);
    tx.afterCommit({ kind: 'settings-changed', guildId });
    // A waiting entry always has its channel (placement.ts); the column allows none, so the type asks.
    for (const { channel_id: channelId } of lanes) {
      if (channelId !== null) tx.afterCommit({ kind: 'work', channelId, guildId, at: now });
    }
  }
}
