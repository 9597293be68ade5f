import type pg from 'pg';

import type { GuildFeedStatus, HeldEntry } from '../deliveries.js';
import { toFeedStatus, toHeld } from '../delivery-rows.js';
import type { HeldEntries } from '../held-entries.js';
import { notify } from './pg-signals.js';
import { changesOf, rowsOf, SQL } from './pg-sql.js';
import { inTransaction } from './transaction.js';

/** Admins' view of the queue on PostgreSQL: /status's counts and the held entries they act on. */
export class PostgresHeldEntries implements HeldEntries {
  constructor(private readonly pool: pg.Pool) {}

  async statusOf(guildId: string): Promise<GuildFeedStatus> {
    const [waiting] = await rowsOf(this.pool, SQL.countWaiting, [guildId]);
    const held = await rowsOf(this.pool, SQL.countHeld, [guildId]);
    const muted = await rowsOf(this.pool, SQL.countMuted, [guildId]);
    const channels = await rowsOf(this.pool, SQL.channelStates, [guildId]);
    return toFeedStatus(waiting?.n ?? 0, held, muted, channels);
  }

  async listHeld(guildId: string, page: { offset: number; limit: number }): Promise<HeldEntry[]> {
    return (await rowsOf(this.pool, SQL.listHeld, [guildId, page.limit, page.offset])).map(toHeld);
  }

  async heldOne(guildId: string, seq: number): Promise<HeldEntry | undefined> {
    const [row] = await rowsOf(this.pool, SQL.heldOne, [guildId, seq]);
    return row && toHeld(row);
  }

  requeueHeld(guildId: string, seq: number, channelId: string, at: number): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      // Locked until the commit: another process's Retry or Discard of the same entry waits, then finds it gone.
      const [entry] = await rowsOf(client, SQL.heldPlace, [guildId, seq]);
      if (!entry) return false;
      if (entry.park_kind === 'broken' && entry.channel_id === channelId) {
        await changesOf(client, SQL.requeueBrokenLane, [channelId, channelId]);
      } else {
        await changesOf(client, SQL.requeueOne, [channelId, seq]);
      }
      await changesOf(client, SQL.clearBroken, [channelId]);
      await notify(client, { kind: 'work', channelId, guildId, at });
      return true;
    });
  }

  async discardHeld(guildId: string, seq: number, at: number): Promise<boolean> {
    return (await changesOf(this.pool, SQL.discardHeld, [at, guildId, seq])) > 0;
  }
}
