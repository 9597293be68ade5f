import { truncateText } from '../../base/truncate-text.js';
import type { DiscordHealth } from '../../discord/discord-health.js';
import { relativeTime } from '../../discord/relative-time.js';
import type { GuildFeedStatus, HeldEntry } from '../../store/deliveries.js';
import type { GuildSettingsStore } from '../../store/guild-settings.js';
import type { HeldEntries } from '../../store/held-entries.js';
import type { HookActivityStore } from '../../store/hook-activity.js';
import type { StoredHook } from '../../store/hooks.js';
import type { SecretBox } from '../../store/secret-box.js';
import type { SetAsideItem, SetAsideStore } from '../../store/set-aside.js';
import { describeLastDelivery, webhookName } from '../webhooks/index.js';

/** Discord's error texts can be long; a line per broken channel is what /status has room for. */
const MAX_REASON = 160;
/** Held entries listed by /status, oldest first (all of them are kept, whatever their number). */
const HELD_SHOWN = 10;
/** Items set aside listed by /status, the longest set aside first. */
const SET_ASIDE_SHOWN = 10;

/** What /status reads: all of it from the store, so every process tells the same. */
export interface StatusDeps {
  guilds: Pick<GuildSettingsStore, 'get'>;
  secrets: Pick<SecretBox, 'encrypts'>;
  activity: Pick<HookActivityStore, 'get'>;
  deliveries: Pick<HeldEntries, 'statusOf' | 'listHeld'>;
  discordHealth: Pick<DiscordHealth, 'state' | 'tokenRefusedSince'>;
  setAside: Pick<SetAsideStore, 'listForGuild'>;
}

/**
 * The lines of /status for one guild: key, webhooks, the feed's queue, broken channels, entries kept aside,
 * then `releaseLines` (the developer key and the release poller's health, see describeReleaseStatus).
 */
export async function describeStatus(
  guildId: string,
  hooks: readonly StoredHook[],
  ctx: StatusDeps,
  releaseLines: readonly string[] = [],
): Promise<string[]> {
  const settings = await ctx.guilds.get(guildId);
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
    for (const hook of hooks) {
      lines.push(`• \`${webhookName(hook)}\`: ${describeLastDelivery(await ctx.activity.get(hook.hookId))}`);
    }
  }
  const refusedSince = ctx.discordHealth.tokenRefusedSince;
  if (refusedSince !== undefined) {
    lines.push(
      `Discord refuses this bot's token since ${relativeTime(refusedSince)}: nothing can be posted until the host ` +
        'fixes DISCORD_TOKEN. Events are kept and will be posted then.',
    );
  }
  const status = await ctx.deliveries.statusOf(guildId);
  const held = await ctx.deliveries.listHeld(guildId, { offset: 0, limit: HELD_SHOWN });
  const setAside = await ctx.setAside.listForGuild(guildId, SET_ASIDE_SHOWN + 1);
  return [...lines, ...describeFeed(status, held), ...describeSetAside(setAside), ...releaseLines];
}

/** What the batch jobs set aside for this server: what, why, and when each is tried again. */
function describeSetAside(items: readonly SetAsideItem[]): string[] {
  if (items.length === 0) return [];
  const lines = ['Set aside (the bot could not do these on their own; each is tried again, later each time):'];
  for (const item of items.slice(0, SET_ASIDE_SHOWN)) {
    const what = item.job === 'record-writer' ? `${item.label}, not in the community record yet` : item.label;
    const tries = `${item.attempts} failed ${item.attempts === 1 ? 'try' : 'tries'} since ${relativeTime(item.since)}`;
    lines.push(
      `• ${what}: ${truncateText(item.reason, MAX_REASON)} (${tries}, next try ${relativeTime(item.retryAt)})`,
    );
  }
  if (items.length > SET_ASIDE_SHOWN) lines.push('… and more.');
  return lines;
}

function describeFeed(status: GuildFeedStatus, held: HeldEntry[]): string[] {
  const lines = [`Events waiting to be posted: ${status.waiting}`];
  if (status.broken.length > 0) {
    lines.push('Broken channels (their events are kept; any /feed change tries them again):');
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
  if (status.heldBroken > 0) lines.push(`Events kept for a broken channel: ${status.heldBroken}`);
  if (status.heldRefused > 0) lines.push(`Events Discord refused (kept aside): ${status.heldRefused}`);
  const unrouted = Object.entries(status.unrouted);
  if (unrouted.length > 0) {
    const counts = unrouted.map(([event, count]) => `${event} ${count}`).join(', ');
    lines.push(`Events with no channel: ${counts}. Route them with /feed set or /feed default.`);
  } else {
    lines.push('Events with no channel: none.');
  }
  const muted = Object.entries(status.muted);
  if (muted.length > 0) {
    const counts = muted.map(([event, count]) => `${event} ${count}`).join(', ');
    lines.push(`Muted by /feed off in the last day (stored, not posted): ${counts}. /feed show lists the rules.`);
  }
  if (status.broken.length === 0) lines.push('Broken channels: none.');
  const total = Object.values(status.unrouted).reduce((sum, n) => sum + n, 0) + status.heldBroken + status.heldRefused;
  if (held.length > 0) {
    lines.push('Kept aside, oldest first:');
    for (const entry of held) lines.push(`• ${entry.event} \`${entry.deliveryId}\` · ${describeHoldReason(entry)}`);
    if (total > held.length) lines.push(`… and ${total - held.length} more.`);
  }
  return lines;
}

function describeHoldReason(entry: HeldEntry): string {
  switch (entry.kind) {
    case 'unrouted':
      return 'no channel for this event';
    case 'broken':
      return `its channel is broken: ${truncateText(entry.detail, MAX_REASON)}`;
    case 'refused':
      return `Discord refused it: ${truncateText(entry.detail, MAX_REASON)}`;
  }
}
