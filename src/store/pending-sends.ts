import { z } from 'zod';

import type { TypedCollection } from './typed-collection.js';

/**
 * A message the feed is about to send: which outbox entries it carries and the nonce it carries them under.
 * Written before the send and deleted after Discord confirmed it, so a process that dies in between sends
 * exactly the same message again, under the same nonce, and Discord (enforce_nonce) returns the first one
 * instead of posting twice.
 */
export const PendingSendSchema = z.object({
  channelId: z.string(),
  nonce: z.string(),
  seqs: z.array(z.number().int()),
});
export type PendingSend = z.infer<typeof PendingSendSchema>;

/** Pending sends by channel (a channel has at most one message in flight: its order depends on it). */
export class PendingSends {
  private readonly byChannel = new Map<string, PendingSend>();

  private constructor(private readonly records: TypedCollection<typeof PendingSendSchema>) {}

  static async load(records: TypedCollection<typeof PendingSendSchema>): Promise<PendingSends> {
    const sends = new PendingSends(records);
    for (const [channelId, send] of await records.entries()) sends.byChannel.set(channelId, send);
    return sends;
  }

  /** Every message written down and not yet confirmed, e.g. by a process that stopped mid-send. */
  all(): PendingSend[] {
    return [...this.byChannel.values()];
  }

  get(channelId: string): PendingSend | undefined {
    return this.byChannel.get(channelId);
  }

  async save(send: PendingSend): Promise<void> {
    await this.records.set(send.channelId, send);
    this.byChannel.set(send.channelId, send);
  }

  async clear(channelId: string): Promise<void> {
    this.byChannel.delete(channelId);
    await this.records.delete(channelId);
  }
}
