import type { HookOutcome } from './hook-activity.js';

/**
 * What the store tells the processes using it, once the change is committed: the feed wakes the lane of a
 * channel with new work, /webhook test hears the outcome of a ping, caches drop what changed. SQLite delivers
 * them in this process; PostgreSQL through LISTEN/NOTIFY to every process.
 */
export type StoreSignal =
  | { kind: 'work'; channelId: string; guildId: string; at: number }
  /** The service's ping arrived, or a delivery was refused (what /webhook test waits for). */
  | { kind: 'hook-outcome'; hookId: string; outcome: HookOutcome }
  /** The service said whether a webhook is on or off (a test ping's answer, an enable): health alerts follow it. */
  | { kind: 'hook-state'; hookId: string; enabled: boolean }
  | { kind: 'settings-changed'; guildId: string }
  | { kind: 'hook-changed'; hookId: string }
  /** The feed processes' shares changed (one joined, gave partitions back, or died): each rebalances now. */
  | { kind: 'leases' }
  /** Signals may have been missed (the listening connection was lost): anything that matters is read again. */
  | { kind: 'resync' };

export interface StoreSignals {
  /** Calls `listener` with every signal from now on; returns the function that stops it. */
  subscribe(listener: (signal: StoreSignal) => void): () => void;
}

/** Signals within one process. */
export class LocalSignals implements StoreSignals {
  private readonly listeners = new Set<(signal: StoreSignal) => void>();

  subscribe(listener: (signal: StoreSignal) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(signal: StoreSignal): void {
    for (const listener of [...this.listeners]) listener(signal);
  }
}
