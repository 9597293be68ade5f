import { z } from 'zod';

import type { TypedCollection } from './typed-collection.js';

/** A verified delivery waiting to be posted. It leaves the outbox only once Discord confirmed its message. */
export const OutboxEntrySchema = z.object({
  /** Arrival order across the whole process; the feed posts in this order per channel. */
  seq: z.number().int().nonnegative(),
  hookId: z.string(),
  guildId: z.string(),
  deliveryId: z.string(),
  event: z.string(),
  receivedAt: z.number().int(),
  /** The body exactly as signed: nothing the service sent is lost, whatever our schemas make of it. */
  rawBody: z.string(),
});
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;
export type NewOutboxEntry = Omit<OutboxEntry, 'seq'>;

/**
 * The durable queue between the intake and the feed. Entries live in the store; an index of them lives in
 * memory (loaded once at start) so the intake's duplicate check and the worker's ordering cost no I/O.
 */
export class Outbox {
  private readonly pending = new Map<number, OutboxEntry>();
  private readonly byDelivery = new Set<string>();
  private nextSeq = 0;
  private readonly listeners = new Set<(entry: OutboxEntry) => void>();

  private constructor(private readonly records: TypedCollection<typeof OutboxEntrySchema>) {}

  /** Opens the outbox and loads what a previous process left in it. */
  static async load(records: TypedCollection<typeof OutboxEntrySchema>): Promise<Outbox> {
    const outbox = new Outbox(records);
    const stored = (await records.entries()).map(([, entry]) => entry);
    // Indexed in arrival order, so the map's own order is the outbox order from here on.
    for (const entry of stored.sort((a, b) => a.seq - b.seq)) outbox.index(entry);
    return outbox;
  }

  /** Writes the entry durably; resolves only once the store has it. */
  async append(entry: NewOutboxEntry): Promise<OutboxEntry> {
    const stored: OutboxEntry = { ...entry, seq: this.nextSeq++ };
    await this.records.set(seqKey(stored.seq), stored);
    this.index(stored);
    for (const listener of this.listeners) listener(stored);
    return stored;
  }

  /** Removes entries whose messages Discord confirmed. */
  async remove(entries: readonly OutboxEntry[]): Promise<void> {
    // Issued together so the store can commit them as one write.
    await Promise.all(entries.map((entry) => this.records.delete(seqKey(entry.seq))));
    for (const entry of entries) {
      this.pending.delete(entry.seq);
      this.byDelivery.delete(deliveryKey(entry.hookId, entry.deliveryId));
    }
  }

  /** True while a delivery of this hook waits here. */
  holds(hookId: string, deliveryId: string): boolean {
    return this.byDelivery.has(deliveryKey(hookId, deliveryId));
  }

  /** The waiting entry with this sequence number, if it still waits. */
  get(seq: number): OutboxEntry | undefined {
    return this.pending.get(seq);
  }

  /** Every waiting entry in arrival order. */
  list(): OutboxEntry[] {
    return [...this.pending.values()];
  }

  get size(): number {
    return this.pending.size;
  }

  /** Calls `listener` with every appended entry; returns a function that unsubscribes. */
  onAppend(listener: (entry: OutboxEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private index(entry: OutboxEntry): void {
    this.pending.set(entry.seq, entry);
    this.byDelivery.add(deliveryKey(entry.hookId, entry.deliveryId));
    if (entry.seq >= this.nextSeq) this.nextSeq = entry.seq + 1;
  }
}

/** Zero-padded so a store that lists keys in text order lists them in arrival order too. */
function seqKey(seq: number): string {
  return seq.toString().padStart(15, '0');
}

function deliveryKey(hookId: string, deliveryId: string): string {
  return `${hookId}:${deliveryId}`;
}
