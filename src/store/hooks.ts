import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** 128 random bits in hex: the hookId in the address is what makes it unguessable (DESIGN.md). */
export function makeHookId(): string {
  return randomBytes(16).toString('hex');
}

/** One registered webhook: the intake finds it by the unguessable hookId in its URL. */
export const StoredHookSchema = z.object({
  hookId: z.string(),
  guildId: z.string(),
  /** The service's own id for the webhook (used for /test and /enable); null until the service answered. */
  webhookId: z.string().nullable(),
  /** The signing secret, sealed by the SecretBox when SECRET_KEY is set. */
  secret: z.string(),
  events: z.array(z.string()),
  createdAt: z.number().int(),
});
export type StoredHook = z.infer<typeof StoredHookSchema>;

/** The registered webhooks, stored. */
export interface HookStore {
  /** The hook at this address; undefined for an unknown id (anyone can send random ids: nothing is kept for them). */
  get(hookId: string): Promise<StoredHook | undefined>;
  save(hook: StoredHook): Promise<void>;
  remove(hookId: string): Promise<void>;
  /** Every hook of one guild, oldest first. */
  listForGuild(guildId: string): Promise<StoredHook[]>;
  /** Every hook (moving a store to another engine). */
  listAll(): Promise<StoredHook[]>;
}
