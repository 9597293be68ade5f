import { randomBytes } from 'node:crypto';
import { z } from 'zod';

import type { TypedCollection } from './typed-collection.js';

/** 128 random bits in hex: the hookId in the address is what makes it unguessable (DESIGN.md). */
export function makeHookId(): string {
  return randomBytes(16).toString('hex');
}

/** One registered webhook: the intake finds it by the unguessable hookId in its URL. */
export const HookRecordSchema = z.object({
  hookId: z.string(),
  guildId: z.string(),
  /** The service's own id for the webhook (used for /test and /enable); null until the service answered. */
  webhookId: z.string().nullable(),
  /** The signing secret, sealed by the SecretBox when SECRET_KEY is set. */
  secret: z.string(),
  events: z.array(z.string()),
  createdAt: z.number().int(),
});
export type HookRecord = z.infer<typeof HookRecordSchema>;

/**
 * Hooks by hookId. Reads are served from memory after the first: the intake looks a hook up on every delivery
 * and this process is the only writer (one long-running process, DESIGN.md).
 */
export class HookRepository {
  private readonly cache = new Map<string, HookRecord | undefined>();

  constructor(private readonly records: TypedCollection<typeof HookRecordSchema>) {}

  async get(hookId: string): Promise<HookRecord | undefined> {
    if (this.cache.has(hookId)) return this.cache.get(hookId);
    const record = await this.records.get(hookId);
    // Unknown ids are not cached: anyone can send random ids and the map must not grow with them.
    if (record) this.cache.set(hookId, record);
    return record;
  }

  async save(record: HookRecord): Promise<void> {
    await this.records.set(record.hookId, record);
    this.cache.set(record.hookId, record);
  }

  async remove(hookId: string): Promise<void> {
    await this.records.delete(hookId);
    this.cache.delete(hookId);
  }

  /** Every hook of one guild, oldest first. */
  async listForGuild(guildId: string): Promise<HookRecord[]> {
    const all = await this.records.entries();
    return all
      .map(([, record]) => record)
      .filter((record) => record.guildId === guildId)
      .sort((a, b) => a.createdAt - b.createdAt);
  }
}
