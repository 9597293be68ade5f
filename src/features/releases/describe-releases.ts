import { truncateText } from '../../base/truncate-text.js';
import { relativeTime } from '../../discord/relative-time.js';
import type { AppGuild } from './app-documents.js';

/** A poller problem can be long (several apps); /status has room for one line. */
const MAX_PROBLEM = 300;

/**
 * The lines /status adds for the developer API: the key, the watched apps, the poller's last good poll, its
 * run of failures and the alert (feed-health alerts to a channel do not exist yet: the alert is logged and
 * shown here).
 */
export function describeReleaseStatus(guild: AppGuild, encrypts: boolean): string[] {
  const lines = [describeKey(guild, encrypts)];
  const watched = Object.values(guild.watches).length;
  if (watched === 0) {
    lines.push('Release cards: no app watched (run /app watch).');
    return lines;
  }
  if (guild.keyRefusal !== null) {
    lines.push(`Release cards: ${watched} app(s) watched, paused until a new developer key is set.`);
    return lines;
  }
  const { poll } = guild;
  const last = poll.lastGoodAt === null ? 'no good poll yet' : `last good poll ${relativeTime(poll.lastGoodAt)}`;
  lines.push(`Release cards: ${watched} app(s) watched; ${last}.`);
  if (poll.failures > 0) {
    const problem = truncateText(poll.lastProblem ?? 'unknown', MAX_PROBLEM);
    const alert = poll.alertedAt === null ? '' : ` ⚠️ Alert raised ${relativeTime(poll.alertedAt)}.`;
    lines.push(`Release poller: ${poll.failures} failed poll(s) in a row, last: ${problem}.${alert}`);
  }
  return lines;
}

function describeKey(guild: AppGuild, encrypts: boolean): string {
  if (guild.developerKey === null) return 'Developer key: not set (run /app key).';
  if (guild.keyRefusal !== null) {
    const why = guild.keyRefusal.status === 401 ? 'replaced or revoked (401)' : 'developer access revoked (403)';
    return `Developer key: refused by the service ${relativeTime(guild.keyRefusal.at)}, ${why}: run /app key.`;
  }
  const account = guild.accountName === null ? '' : ` for ${guild.accountName}`;
  return `Developer key: set${account}${encrypts ? ', stored encrypted' : ''}.`;
}
