const SECOND_MS = 1_000;
/**
 * How long a send counts beyond the second itself. @discordjs/rest counts its own seconds, each from its first
 * request after the last one ended, when the request leaves (a moment after the pacer let it go); one request over,
 * it holds every request for the rest of that second plus its 50 ms offset. Let go the instant the pacer's oldest
 * send of the second ended, the next send found that second still running there a few times a second while the
 * share was spent, and waited 50 to 100 ms (`npm run bench -- feed-latency`, 2026-11-29).
 */
export const LEAVING_MS = 10;
/** How long each send counts. */
export const COUNTED_MS = SECOND_MS + LEAVING_MS;

/** The send pacer's sends of the last second (and LEAVING_MS), oldest first: no second holds more than a limit. */
export class LastSecond {
  private readonly sentAt: number[] = [];

  /** A send went at `now`. */
  note(now: number): void {
    this.sentAt.push(now);
  }

  /** When a send may go if fewer than `limit` may count at once: `now`, or when enough stopped counting. */
  opensAt(limit: number, now: number): number {
    while (this.sentAt.length > 0 && (this.sentAt[0] ?? now) <= now - COUNTED_MS) this.sentAt.shift();
    const over = this.sentAt.length - Math.max(0, limit);
    if (over < 0) return now;
    return (this.sentAt[over] ?? now) + COUNTED_MS;
  }
}
