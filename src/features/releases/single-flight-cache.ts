import type { Clock } from '../../base/clock.js';

/**
 * Values by key, each loaded at most once at a time and kept for `ttlMs`: many readers at once (autocomplete
 * keystrokes, pages of /store) share one request, and a fresh value costs none. Bounded by what callers key it
 * with (guilds, keys): a handful of entries.
 */
export class SingleFlightCache<T> {
  private readonly entries = new Map<string, { value: T; at: number }>();
  private readonly loading = new Map<string, Promise<T>>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** The value held for `key`, however old; undefined when none. */
  peek(key: string): T | undefined {
    return this.entries.get(key)?.value;
  }

  /** Stores a value learnt elsewhere (the poller's GET /apps), as fresh. */
  set(key: string, value: T): void {
    this.entries.set(key, { value, at: this.clock() });
  }

  /** The value for `key`: the held one while younger than `maxAgeMs` (default the TTL), else `load`'s. */
  async get(key: string, load: () => Promise<T>, maxAgeMs = this.ttlMs): Promise<T> {
    const held = this.entries.get(key);
    if (held && this.clock() - held.at < maxAgeMs) return held.value;
    const running = this.loading.get(key);
    if (running) return running;
    const loaded = load().then((value) => {
      this.set(key, value);
      return value;
    });
    this.loading.set(key, loaded);
    try {
      return await loaded;
    } finally {
      this.loading.delete(key);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
