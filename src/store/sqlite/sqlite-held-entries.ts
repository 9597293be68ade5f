import type { Database } from 'better-sqlite3';

import type { GuildFeedStatus, HeldEntry } from '../deliveries.js';
import { toFeedStatus, toHeld } from '../delivery-rows.js';
import type { HeldEntries } from '../held-entries.js';
import { prepare, SQL } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

/** Admins' view of the queue on SQLite: /status's counts and the held entries they act on. */
export class SqliteHeldEntries implements HeldEntries {
  private readonly statements;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.statements = {
      countWaiting: prepare(db, SQL.countWaiting),
      countHeld: prepare(db, SQL.countHeld),
      countMuted: prepare(db, SQL.countMuted),
      channelStates: prepare(db, SQL.channelStates),
      listHeld: prepare(db, SQL.listHeld),
      heldOne: prepare(db, SQL.heldOne),
      heldPlace: prepare(db, SQL.heldPlace),
      requeueBrokenLane: prepare(db, SQL.requeueBrokenLane),
      requeueOne: prepare(db, SQL.requeueOne),
      clearBroken: prepare(db, SQL.clearBroken),
      discardHeld: prepare(db, SQL.discardHeld),
    };
  }

  statusOf(guildId: string): Promise<GuildFeedStatus> {
    const { countWaiting, countHeld, countMuted, channelStates } = this.statements;
    return Promise.resolve(
      toFeedStatus(
        countWaiting.get(guildId)?.n ?? 0,
        countHeld.all(guildId),
        countMuted.all(guildId),
        channelStates.all(guildId),
      ),
    );
  }

  listHeld(guildId: string, page: { offset: number; limit: number }): Promise<HeldEntry[]> {
    return Promise.resolve(this.statements.listHeld.all(guildId, page.limit, page.offset).map(toHeld));
  }

  heldOne(guildId: string, seq: number): Promise<HeldEntry | undefined> {
    const row = this.statements.heldOne.get(guildId, seq);
    return Promise.resolve(row && toHeld(row));
  }

  requeueHeld(guildId: string, seq: number, channelId: string, at: number): Promise<boolean> {
    return this.writes.run((tx) => {
      const entry = this.statements.heldPlace.get(guildId, seq);
      if (!entry) return false;
      if (entry.park_kind === 'broken' && entry.channel_id === channelId) {
        this.statements.requeueBrokenLane.run(channelId, channelId);
      } else {
        this.statements.requeueOne.run(channelId, seq);
      }
      this.statements.clearBroken.run(channelId);
      tx.afterCommit({ kind: 'work', channelId, guildId, at });
      return true;
    });
  }

  discardHeld(guildId: string, seq: number, at: number): Promise<boolean> {
    return this.writes.run(() => this.statements.discardHeld.run(at, guildId, seq).changes > 0);
  }
}
