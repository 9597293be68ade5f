import { time } from 'discord.js';

/**
 * Time in a Discord timestamp: absolute and relative, e.g. `<t:1700000000:f> (<t:1700000000:R>)`, which each
 * reader's client shows in their own time zone and language. The style letters are spelled out because
 * discord.js has renamed its `TimestampStyles` keys between versions.
 */
export function formatEventTime(epochMs: number): string {
  const seconds = Math.floor(epochMs / 1000);
  return `${time(seconds, 'f')} (${time(seconds, 'R')})`;
}

/**
 * The embed `timestamp` for a time in ms: an ISO 8601 string, or undefined when `epochMs` is not an integer
 * or falls outside years 0000–9999 (Date throws beyond ±8.64e15 ms, and six-digit years are not RFC 3339).
 */
export function toEmbedTimestamp(epochMs: unknown): string | undefined {
  if (typeof epochMs !== 'number' || !Number.isSafeInteger(epochMs)) return undefined;
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  return /^[0-9]{4}-/.test(iso) ? iso : undefined;
}

/**
 * A length of time, to the minute, rounded down: `0 min`, `45 min`, `2 h 05 min`, and with days
 * `2 d 3 h 04 min`. Negative input counts as 0.
 */
export function formatDuration(totalSeconds: number): string {
  const totalMinutes = Math.max(0, Math.floor(totalSeconds / 60));
  const minutes = totalMinutes % 60;
  const hours = Math.floor(totalMinutes / 60) % 24;
  const days = Math.floor(totalMinutes / (60 * 24));
  const paddedMinutes = `${String(minutes).padStart(2, '0')} min`;
  if (days > 0) return `${days} d ${hours} h ${paddedMinutes}`;
  if (hours > 0) return `${hours} h ${paddedMinutes}`;
  return `${minutes} min`;
}
