import type { Database } from 'better-sqlite3';

import type { BrokenChannel, ChannelWithWork, QueuedEntry } from '../deliveries.js';
import { toChannelWithWork, toQueued } from '../delivery-rows.js';
import type { LaneQueue } from '../lane-queue.js';
import { sqliteDialect as d } from '../sql-dialect.js';
import { prepare, SQL } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

/**
 * The feed's lanes on SQLite. Writes go through the {@link WriteBatcher} (group commit); reads run directly and
 * see only committed data (a batch runs within one synchronous call). No lease is checked: the file lock lets
 * one process at a time open the file, so no other can take its lanes.
 */
export class SqliteLaneQueue implements LaneQueue {
  private readonly statements;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.statements = {
      channelsWithWork: prepare(db, SQL.channelsWithWork),
      waitingHead: prepare(db, SQL.waitingHead),
      writtenEntries: prepare(db, SQL.writtenEntries),
      unwrittenEntries: prepare(db, SQL.unwrittenEntries),
      writeDown: prepare(db, SQL.writeDown),
      unwrite: prepare(db, SQL.unwrite),
      saveMessage: prepare(db, SQL.saveMessage),
      writtenMessage: prepare(db, SQL.writtenMessage),
      forgetMessage: prepare(db, SQL.forgetMessage),
      markPosted: prepare(db, SQL.markPosted),
      clearFailures: prepare(db, SQL.clearFailures),
      noteFailure: prepare(db, SQL.noteFailure),
      holdRefused: prepare(db, SQL.holdRefused),
      markBroken: prepare(db, SQL.markBroken),
      holdBrokenLane: prepare(db, SQL.holdBrokenLane),
      retryAtOf: prepare(db, SQL.retryAtOf),
    };
  }

  channelsWithWork(): Promise<ChannelWithWork[]> {
    return Promise.resolve(this.statements.channelsWithWork.all().map(toChannelWithWork));
  }

  nextFor(channelId: string, max: number): Promise<QueuedEntry[]> {
    const first = this.statements.waitingHead.get(channelId, 1);
    if (!first) return Promise.resolve([]);
    const rows = first.claim_nonce
      ? this.statements.writtenEntries.all(first.claim_nonce, channelId)
      : this.statements.unwrittenEntries.all(channelId, max);
    return Promise.resolve(rows.map(toQueued));
  }

  writeDown(channelId: string, nonce: string, seqs: readonly number[], message?: string): Promise<boolean> {
    return this.writes.run(() => {
      if (this.statements.writeDown.run(nonce, channelId, d.list(seqs)).changes === seqs.length) {
        if (message !== undefined) this.statements.saveMessage.run(channelId, nonce, message);
        return true;
      }
      // One of them moved (a settings change re-routed it): undo, the lane reads again.
      this.statements.unwrite.run(nonce, channelId);
      return false;
    });
  }

  writtenMessage(channelId: string, nonce: string): Promise<string | undefined> {
    return Promise.resolve(this.statements.writtenMessage.get(channelId, nonce)?.message);
  }

  ack(channelId: string, nonce: string, postedAt: number): Promise<void> {
    return this.writes.run(() => {
      this.statements.markPosted.run(postedAt, nonce, channelId);
      this.statements.forgetMessage.run(channelId, nonce);
      this.statements.clearFailures.run(channelId);
    });
  }

  release(channelId: string, nonce: string): Promise<void> {
    return this.writes.run(() => {
      this.statements.unwrite.run(nonce, channelId);
      this.statements.forgetMessage.run(channelId, nonce);
    });
  }

  noteFailure(channelId: string, guildId: string, retryAt: number): Promise<number> {
    return this.writes.run(() => this.statements.noteFailure.get(channelId, guildId, retryAt)?.failures ?? 1);
  }

  holdRefused(seqs: readonly number[], detail: string, at: number): Promise<void> {
    return this.writes.run(() => {
      this.statements.holdRefused.run(detail, at, d.list(seqs));
    });
  }

  holdBrokenChannel(channel: BrokenChannel): Promise<void> {
    const { channelId, guildId, status, reason, since } = channel;
    return this.writes.run(() => {
      this.statements.markBroken.run(channelId, guildId, status, reason, since);
      this.statements.holdBrokenLane.run(reason, since, channelId);
    });
  }

  retryAtOf(channelId: string): Promise<number | undefined> {
    return Promise.resolve(this.statements.retryAtOf.get(channelId)?.retry_at ?? undefined);
  }
}
