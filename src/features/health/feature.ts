import type { BackoffPolicy } from '../../base/backoff.js';
import type { DiscordHealth } from '../../discord/discord-health.js';
import type { DocumentStore } from '../../store/documents.js';
import type { HeldEntries } from '../../store/held-entries.js';
import type { SetAsideStore } from '../../store/set-aside.js';
import { auditOf } from '../audit/index.js';
import type { BotParts, Feature } from '../feature.js';
import type { WebhooksDeps } from '../webhooks/index.js';
import { AlertDesk } from './alert-desk.js';
import { alertSettingsOn, type AlertSettingsStore } from './alert-settings.js';
import { dropOldHeld } from './drop-old-held.js';
import { HealthMonitor } from './health-monitor.js';
import { incidentsOn } from './incidents.js';

/** How long the monitor waits for a test ping at the intake (the alert's "no ping within 30 s"). */
const SILENCE_PING_TIMEOUT_MS = 30_000;

/** The monitor's timings: how often it checks, the hour of /alerts set silence:<hours>, the test ping's wait. */
export interface HealthTimings {
  checkEveryMs?: number;
  hourMs?: number;
  pingTimeoutMs?: number;
  /** How long an alert whose post or edit failed waits for its retry (default 30 s doubling to 30 min). */
  alertBackoff?: BackoffPolicy;
}

/** What /alerts, /status, /feed held and the held entries' buttons use of feed health. */
export interface HealthDeps {
  /** The feed's queue: its counts, and the entries it holds. */
  deliveries: HeldEntries;
  /** Whether Discord takes the bot's token (shown by /status when it does not). */
  discordHealth: Pick<DiscordHealth, 'state' | 'tokenRefusedSince'>;
  /** What the batch jobs set aside (/status lists a server's). */
  setAside: Pick<SetAsideStore, 'listForGuild'>;
  health: {
    settings: AlertSettingsStore;
    /** Where the recovery reports are kept. */
    documents: DocumentStore;
    monitor: Pick<HealthMonitor, 'checkGuild' | 'postOpen' | 'openIn' | 'noteAction'>;
  };
}

/**
 * The health feature: its deps are its own and the webhooks feature's (an alert's Re-enable and Send test act on
 * a webhook; the held list's Route reads the routing), what its commands and buttons are given.
 */
export type HealthFeature = Feature<HealthDeps & WebhooksDeps> & { monitor: HealthMonitor };

/**
 * Feed health: alerts before the service switches a webhook off, when a channel refuses the feed, when entries
 * are held; held entries past their retention dropped. Its monitor, like the cards, runs where the gateway is.
 * `webhooks`: the webhooks feature's deps (src/features/index.ts hands them over).
 */
export function createHealthFeature(
  parts: BotParts,
  webhooks: WebhooksDeps,
  timings: HealthTimings = {},
): HealthFeature {
  const { store, clock, logger } = parts;
  const settings = alertSettingsOn(store.documents, logger);
  const incidents = incidentsOn(store.documents, logger);
  const monitor = new HealthMonitor({
    hooks: store.hooks,
    activity: store.activity,
    deliveries: store.deliveries,
    signals: store.signals,
    intakeFailures: parts.intakeFailures,
    incidents,
    settings,
    desk: new AlertDesk({
      incidents,
      settings,
      poster: parts.poster,
      findPosted: parts.findPosted,
      nonceWindowMs: parts.nonceWindowMs,
      clock,
      logger,
      timers: parts.timers,
      backoff: timings.alertBackoff,
      onBackoff: () => parts.metrics.guildBackoff('health_alert'),
    }),
    documents: store.documents,
    probe: {
      signals: store.signals,
      service: parts.service,
      activity: store.activity,
      guilds: store.guilds,
      secrets: parts.secrets,
      logger,
      clock,
      publicUrl: parts.config.PUBLIC_URL,
      pingTimeoutMs: timings.pingTimeoutMs ?? SILENCE_PING_TIMEOUT_MS,
    },
    clock,
    timers: parts.timers,
    logger,
    ...(timings.checkEveryMs ? { checkEveryMs: timings.checkEveryMs } : {}),
    ...(timings.hourMs ? { hourMs: timings.hourMs } : {}),
  });
  return {
    monitor,
    deps: {
      ...webhooks,
      deliveries: store.deliveries,
      discordHealth: parts.discordHealth,
      setAside: store.setAside,
      health: { settings, documents: store.documents, monitor },
    },
    jobs: [
      {
        start: () =>
          monitor.start().catch((error: unknown) => logger.error({ err: error }, 'the health monitor could not start')),
        stop: () => monitor.stop(),
      },
    ],
    sweep: () => dropOldHeld({ deliveries: store.deliveries, audit: auditOf(store), clock, logger }),
  };
}
