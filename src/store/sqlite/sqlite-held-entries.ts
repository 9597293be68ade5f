import type { Database } from 'better-sqlite3';

import type { GuildFeedStatus, ParkedEntry } from '../deliveries.js';
import { toFeedStatus, toParked } from '../delivery-rows.js';
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
      countParked: prepare(db, SQL.countParked),
      countMuted: prepare(db, SQL.countMuted),
      channelStates: prepare(db, SQL.channelStates),
      listParked: prepare(db, SQL.listParked),
      parkedOne: prepare(db, SQL.parkedOne),
      parkedPlace: prepare(db, SQL.parkedPlace),
      requeueBrokenLane: prepare(db, SQL.requeueBrokenLane),
      requeueOne: prepare(db, SQL.requeueOne),
      clearBroken: prepare(db, SQL.clearBroken),
      discardParked: prepare(db, SQL.discardParked),
    };
  }

  statusOf(guildId: string): Promise<GuildFeedStatus> {
    const { countWaiting, countParked, countMuted, channelStates } = this.statements;
    return Promise.resolve(
      toFeedStatus(
        countWaiting.get(guildId)?.n ?? 0,
        countParked.all(guildId),
        countMuted.all(guildId),
        channelStates.all(guildId),
      ),
    );
  }

  listParked(guildId: string, page: { offset: number; limit: number }): Promise<ParkedEntry[]> {
    return Promise.resolve(this.statements.listParked.all(guildId, page.limit, page.offset).map(toParked));
  }

  parkedOne(guildId: string, seq: number): Promise<ParkedEntry | undefined> {
    const row = this.statements.parkedOne.get(guildId, seq);
    return Promise.resolve(row && toParked(row));
  }

  requeueParked(guildId: string, seq: number, channelId: string, at: number): Promise<boolean> {
    return this.writes.run((tx) => {
      const entry = this.statements.parkedPlace.get(guildId, seq);
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

  discardParked(guildId: string, seq: number, at: number): Promise<boolean> {
    return this.writes.run(() => this.statements.discardParked.run(at, guildId, seq).changes > 0);
  }
}
