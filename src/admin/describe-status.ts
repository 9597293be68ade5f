import type { GuildFeedStatus } from '../feed/feed-worker.js';
import type { GuildSettingsRepository } from '../store/guild-settings.js';
import type { HookActivity } from '../store/hook-activity.js';
import type { HookRecord } from '../store/hooks.js';
import type { SecretBox } from '../store/secret-box.js';
import { truncateText } from '../truncate-text.js';
import { describeLastDelivery } from './describe-hook.js';
import { webhookName } from './find-webhook.js';
import { relativeTime } from './format.js';

/** Discord's error texts can be long; a line per broken channel is what /status has room for. */
const MAX_REASON = 160;

/** What /status reads: settings, hook activity, and the feed when this process runs one. */
export interface StatusDeps {
  guilds: GuildSettingsRepository;
  secrets: Pick<SecretBox, 'encrypts'>;
  activity: HookActivity;
  feed: { statusOf(guildId: string): GuildFeedStatus } | undefined;
}

/**
 * The lines of /status for one guild: key, webhooks, waiting events, broken channels, unrouted events, then
 * `releaseLines` (the developer key and the release poller's health, see describeReleaseStatus).
 */
export function describeStatus(
  guildId: string,
  hooks: readonly HookRecord[],
  ctx: StatusDeps,
  releaseLines: readonly string[] = [],
): string[] {
  const settings = ctx.guilds.get(guildId);
  const lines = ['**Feed status of this server**'];
  lines.push(
    settings.serverKey === null
      ? 'Server key: not set (run /setup).'
      : `Server key: set${ctx.secrets.encrypts ? ', stored encrypted' : ''}.`,
  );
  if (hooks.length === 0) {
    lines.push('Webhooks: none (run /webhook register).');
  } else {
    lines.push(`Webhooks: ${hooks.length}`);
    for (const hook of hooks) lines.push(`• \`${webhookName(hook)}\`: ${describeLastDelivery(hook, ctx.activity)}`);
  }
  if (!ctx.feed) {
    lines.push('Feed: not running in this process (it was started without Discord).');
    return [...lines, ...releaseLines];
  }
  return [...lines, ...describeFeed(ctx.feed.statusOf(guildId)), ...releaseLines];
}

function describeFeed(status: GuildFeedStatus): string[] {
  const lines = [`Events waiting to be posted: ${status.waiting}`];
  if (status.broken.length > 0) {
    lines.push('Broken channels (their events wait; any /feed change tries them again):');
    for (const broken of status.broken) {
      lines.push(
        `• <#${broken.channelId}>: ${truncateText(broken.reason, MAX_REASON)} (since ${relativeTime(broken.since)})`,
      );
    }
  }
  for (const retry of status.retrying) {
    lines.push(
      `Retrying <#${retry.channelId}> after ${retry.failures} failed sends, next try ${relativeTime(retry.nextTryAt)}.`,
    );
  }
  const unrouted = Object.entries(status.unrouted);
  if (unrouted.length > 0) {
    const counts = unrouted.map(([event, count]) => `${event} ${count}`).join(', ');
    lines.push(`Events with no channel: ${counts}. Route them with /feed set or /feed default.`);
  } else {
    lines.push('Events with no channel: none.');
  }
  if (status.broken.length === 0) lines.push('Broken channels: none.');
  return lines;
}
