import type { Client } from 'discord.js';

import type { WebhookStates } from '../admin/webhook-states.js';
import type { Config } from '../config.js';
import type { HookActivity } from '../intake/hook-activity.js';
import type { Logger } from '../logger.js';
import type { GuildFeedStatus } from '../outbox/worker.js';
import type { Store } from '../store/open-store.js';
import type { SecretBox } from '../store/secret-box.js';
import type { ServiceClient } from '../upstream/client.js';

/** How long /webhook test waits for the service's ping to reach the intake. */
export const DEFAULT_PING_TIMEOUT_MS = 10_000;

/**
 * Everything a slash command may use, passed in (never imported) so a test can hand a command its own
 * store, service or clock and call `execute(interaction, ctx)` directly.
 */
export interface CommandContext {
  store: Pick<Store, 'hooks' | 'guilds'>;
  /** Seals the server key and webhook secrets before they are stored. */
  secrets: SecretBox;
  service: ServiceClient;
  config: Pick<Config, 'PUBLIC_URL'>;
  /**
   * The base of the address the service posts to: `${webhookBaseUrl}/webhooks/<hookId>`. PUBLIC_URL in
   * production; tests point it at the intake's own http:// address, which PUBLIC_URL (https only) cannot be.
   */
  webhookBaseUrl: string;
  /** The feed; undefined when the process runs without Discord. */
  worker: { statusOf(guildId: string): GuildFeedStatus } | undefined;
  activity: HookActivity;
  /** What this process learnt about each webhook's on/off state (the service offers no way to ask). */
  webhookStates: WebhookStates;
  logger: Logger;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  client: Client;
  pingTimeoutMs: number;
}
