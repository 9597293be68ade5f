import { time, TimestampStyles } from 'discord.js';

/** A moment as Discord's relative timestamp ("3 minutes ago"), shown in each reader's own time zone. */
export function relativeTime(ms: number): string {
  return time(Math.floor(ms / 1000), TimestampStyles.RelativeTime);
}
