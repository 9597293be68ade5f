import { randomBytes } from 'node:crypto';

import type { Clock } from '../../base/clock.js';

/** A preview can be clicked until its interaction's token runs out (15 minutes). */
export const DRAFT_LIFETIME_MS = 15 * 60 * 1000;
/** Drafts held at once; the oldest gives way. A draft may hold an upload's bytes, so memory stays bounded. */
export const MAX_DRAFTS = 20;
/** Answered drafts remembered at once, so a late second click is told so rather than "expired". */
const MAX_ANSWERED = 100;

/** What a preview's buttons act on, and who may act: the one who asked for it. */
export interface Draft<T> {
  id: string;
  guildId: string;
  userId: string;
  createdAt: number;
  value: T;
}

/**
 * Previews waiting for their Submit or Cancel (and confirmations for their Withdraw), in memory only: a draft
 * lives as long as the interaction that shows it, and after a restart its buttons say to start again.
 */
export class Drafts<T> {
  private readonly drafts = new Map<string, Draft<T>>();
  /** Ids of drafts taken, with when: only their ids, never what they held. */
  private readonly answered = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /** Keeps a draft; returns its id, which goes into the buttons' custom ids. */
  put(guildId: string, userId: string, value: T): string {
    this.sweep();
    while (this.drafts.size >= MAX_DRAFTS) {
      const oldest = this.drafts.keys().next().value;
      if (oldest === undefined) break;
      this.drafts.delete(oldest);
    }
    const id = randomBytes(8).toString('hex');
    this.drafts.set(id, { id, guildId, userId, createdAt: this.clock(), value });
    return id;
  }

  /** The draft, while it lives. */
  get(id: string): Draft<T> | undefined {
    this.sweep();
    return this.drafts.get(id);
  }

  /** Removes the draft and returns it: a second click finds nothing, so nothing is sent twice. */
  take(id: string): Draft<T> | undefined {
    const draft = this.get(id);
    if (draft) {
      this.drafts.delete(id);
      this.answered.set(id, this.clock());
      const oldest = this.answered.keys().next().value;
      if (this.answered.size > MAX_ANSWERED && oldest !== undefined) this.answered.delete(oldest);
    }
    return draft;
  }

  /** Whether the draft was taken (answered) within its lifetime. */
  wasTaken(id: string): boolean {
    this.sweep();
    return this.answered.has(id);
  }

  private sweep(): void {
    const now = this.clock();
    for (const [id, draft] of this.drafts) if (now - draft.createdAt >= DRAFT_LIFETIME_MS) this.drafts.delete(id);
    for (const [id, at] of this.answered) if (now - at >= DRAFT_LIFETIME_MS) this.answered.delete(id);
  }
}
