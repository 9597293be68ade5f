import type { GuildSettingsStore } from '../../store/guild-settings.js';
import type { HookActivityStore } from '../../store/hook-activity.js';
import type { HookStore } from '../../store/hooks.js';
import type { SecretBox } from '../../store/secret-box.js';
import type { StoreSignals } from '../../store/signals.js';
import type { ServiceClient } from '../../upstream/client.js';
import { auditOf } from '../audit/index.js';
import type { BotParts, Feature } from '../feature.js';
import { forgetLeftGuild } from './forget-left-guild.js';

/** How long /webhook test waits for the service's ping to reach the intake. */
export const DEFAULT_PING_TIMEOUT_MS = 10_000;

/** What /setup, /webhook and the alerts' Re-enable use. */
export interface WebhooksDeps {
  hooks: HookStore;
  guilds: GuildSettingsStore;
  /** Deliveries seen and on/off learnt per hook. */
  activity: HookActivityStore;
  /** The store's signals: /webhook test hears the service's ping through them, whichever process it reached. */
  signals: StoreSignals;
  /** Seals the server key and webhook secrets before they are stored. */
  secrets: SecretBox;
  service: ServiceClient;
  /** PUBLIC_URL, named in what to check when a ping does not arrive. */
  publicUrl: string;
  /** The base of the address the service posts to: `${webhookBaseUrl}/webhooks/<hookId>`. */
  webhookBaseUrl: string;
  pingTimeoutMs: number;
}

/**
 * The server key and the webhooks: store the key, register, test, re-enable, remove; and forgetting what a
 * server kept once the bot is removed from it.
 */
export function createWebhooksFeature(parts: BotParts): Feature<WebhooksDeps> {
  const { store, discord, clock, logger } = parts;
  return {
    deps: {
      hooks: store.hooks,
      guilds: store.guilds,
      activity: store.activity,
      signals: store.signals,
      secrets: parts.secrets,
      service: parts.service,
      publicUrl: parts.config.PUBLIC_URL,
      webhookBaseUrl: parts.webhookBaseUrl,
      pingTimeoutMs: DEFAULT_PING_TIMEOUT_MS,
    },
    onGuildRemoved: (guildId) =>
      forgetLeftGuild(guildId, { store, audit: auditOf(store), botUserId: discord.user?.id ?? '', clock, logger }),
    keptGuilds: () => store.knownGuilds(),
  };
}
