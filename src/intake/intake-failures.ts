/** A streak of deliveries of one hook this process failed to store (answered 500, or 503: the store fell behind). */
export interface IntakeFailureStreak {
  guildId: string;
  count: number;
  /** The last error, in words (never a body or a secret: store errors name tables and files). */
  detail: string;
  at: number;
}

/**
 * Deliveries the intake could not store, counted per hook in this process's memory: when the store fails,
 * nothing can be written to it, and the service counts these 500s (and the 503s of a store that fell behind)
 * toward switching the webhook off just like refusals. The health monitor of the same process turns a streak into
 * an alert. (An intake-only process on PostgreSQL has no monitor: its failures are in its log.)
 */
export class IntakeFailures {
  private readonly streaks = new Map<string, IntakeFailureStreak>();
  private readonly listeners = new Set<(hookId: string) => void>();

  failed(hook: { hookId: string; guildId: string }, error: unknown, at: number): void {
    const previous = this.streaks.get(hook.hookId);
    const detail = error instanceof Error ? error.message : String(error);
    this.streaks.set(hook.hookId, { guildId: hook.guildId, count: (previous?.count ?? 0) + 1, detail, at });
    this.tell(hook.hookId);
  }

  /** A delivery of the hook was stored: its streak, if any, is over. Costs one map lookup otherwise. */
  stored(hookId: string): void {
    if (this.streaks.delete(hookId)) this.tell(hookId);
  }

  streakOf(hookId: string): IntakeFailureStreak | undefined {
    return this.streaks.get(hookId);
  }

  /** Calls `listener` with the hook id whenever a streak changes; returns the function that stops it. */
  subscribe(listener: (hookId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(hookId: string): void {
    for (const listener of this.listeners) listener(hookId);
  }
}
