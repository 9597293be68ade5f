import type { Client } from 'discord.js';

import type { AppDraft } from '../src/apps/app-draft.js';
import type { AppRecords } from '../src/apps/app-records.js';
import type { DeveloperCache } from '../src/apps/developer-cache.js';
import type { AttachmentDownloader } from '../src/apps/download-attachment.js';
import type { DraftStore } from '../src/apps/drafts.js';
import type { CardRecords } from '../src/cards/card-records.js';
import type { Command } from '../src/discord/command.js';
import type { DiscordHealth } from '../src/discord/discord-health.js';
import type { AlertSettingsStore } from '../src/health/alert-settings.js';
import type { HealthMonitor } from '../src/health/health-monitor.js';
import type { Logger } from '../src/logger.js';
import type { AuditLog } from '../src/store/audit-log.js';
import type { GuildSettingsStore } from '../src/store/guild-settings.js';
import type { HeldEntries } from '../src/store/held-entries.js';
import type { HookActivityStore } from '../src/store/hook-activity.js';
import type { HookStore } from '../src/store/hooks.js';
import type { RecordStore } from '../src/store/records.js';
import type { SecretBox } from '../src/store/secret-box.js';
import type { StoreSignals } from '../src/store/signals.js';
import type { ServiceClient } from '../src/upstream/client.js';
import type { DeveloperClient } from '../src/upstream/developer-client.js';

/** How long /webhook test waits for the service's ping to reach the intake. */
export const DEFAULT_PING_TIMEOUT_MS = 10_000;

/**
 * Everything a slash command may use. The composition root (src/bot.ts) builds it; a test builds its own and
 * calls `execute(interaction, ctx)` directly. Helpers under src/admin/ take only the fields they use.
 */
export interface CommandContext {
  hooks: HookStore;
  guilds: GuildSettingsStore;
  /** The feed's queue as admins see it: what /status counts and lists, and what /feed held acts on. */
  deliveries: HeldEntries;
  /** Deliveries seen and on/off learnt per hook. */
  activity: HookActivityStore;
  /** The store's signals: /webhook test hears the service's ping through them, whichever process it reached. */
  signals: StoreSignals;
  /** Seals the server key and webhook secrets before they are stored. */
  secrets: SecretBox;
  service: ServiceClient;
  /** PUBLIC_URL, named in what to check when a ping does not arrive. */
  publicUrl: string;
  /**
   * The base of the address the service posts to: `${webhookBaseUrl}/webhooks/<hookId>`. PUBLIC_URL in
   * production; tests point it at the intake's own http:// address, which PUBLIC_URL (https only) cannot be.
   */
  webhookBaseUrl: string;
  /** Whether Discord takes the bot's token (shown by /status when it does not). */
  discordHealth: Pick<DiscordHealth, 'state' | 'tokenRefusedSince'>;
  logger: Logger;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  client: Client;
  pingTimeoutMs: number;
  /** The developer API's records: key, managers role, watches, release cards, submission counts. */
  appRecords: AppRecords;
  /** The developer API v1, with one request budget per key shared with the poller. */
  developer: DeveloperClient;
  /** App lists, options and the store, so autocomplete and paging cost no request per keystroke or click. */
  developerCache: DeveloperCache;
  /** The release poller: told to look at an app at once after a submission or a withdrawal. */
  releases: { pollSoon(guildId: string, appId: string): void };
  /** Previews and confirmations waiting for their buttons (memory only). */
  appDrafts: DraftStore<AppDraft>;
  /** Fetches a command's attachment from Discord. */
  downloadAttachment: AttachmentDownloader;
  /** Feed health: where alerts go, and the monitor that keeps the incidents. */
  health: {
    settings: AlertSettingsStore;
    /** Where the recovery reports are kept. */
    records: RecordStore;
    monitor: Pick<HealthMonitor, 'checkGuild' | 'postOpen' | 'openIn' | 'noteAction'>;
  };
  /** Modcall cards (Claim, Resolve) and escalation settings. */
  cards: CardRecords;
  /** Admin actions, recorded by the dispatcher and shown by /audit. */
  audit: Pick<AuditLog, 'latest'>;
}

/** A slash command of this bot. */
export type BotCommand = Command<CommandContext>;
