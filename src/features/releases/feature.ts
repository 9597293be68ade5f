import type { Poster } from '../../discord/posting/poster.js';
import type { SecretBox } from '../../store/secret-box.js';
import { createDeveloperClient, type DeveloperClient } from '../../upstream/developer-client.js';
import type { BotParts, Feature } from '../feature.js';
import { appDocumentsOn } from './app-documents-on.js';
import type { AppDocuments } from './app-documents.js';
import type { AppDraft } from './app-draft.js';
import { DeveloperCache } from './developer-cache.js';
import { createAttachmentDownloader, type AttachmentDownloader } from './download-attachment.js';
import { Drafts } from './drafts.js';
import type { PollHealth } from './poll-failures.js';
import { ReleasePoller, type PollIntervals } from './release-poller.js';

/** What /app and /store use of the developer API. */
export interface ReleasesDeps {
  /** The developer API's documents: key, managers role, watches, release cards, submission counts. */
  appDocuments: AppDocuments;
  /** The developer API v1, with one request budget per key shared with the poller. */
  developer: DeveloperClient;
  /** App lists, options and the store, so autocomplete and paging cost no request per keystroke or click. */
  developerCache: DeveloperCache;
  /** The release poller: told to look at an app at once after a submission or a withdrawal. */
  releases: { pollSoon(guildId: string, appId: string): void };
  /** Previews and confirmations waiting for their buttons (memory only). */
  appDrafts: Drafts<AppDraft>;
  /** Fetches a command's attachment from Discord. */
  downloadAttachment: AttachmentDownloader;
  /** Seals the developer key before it is stored, and opens it for a call. */
  secrets: SecretBox;
  /** Edits a release card at once when /app withdraw withdrew its version. */
  poster: Poster;
}

export interface ReleasesOptions {
  /** The poller's intervals; the demo shortens them. */
  intervals?: Partial<PollIntervals> | undefined;
  /** Told when a guild's polls start or stop failing (the health alerts). */
  onPollHealth?(guildId: string, health: PollHealth): void;
}

export type ReleasesFeature = Feature<ReleasesDeps> & { poller: ReleasePoller };

/** A studio's apps in the service's app store: release cards kept current by a poller, submit, withdraw. */
export function createReleasesFeature(parts: BotParts, options: ReleasesOptions = {}): ReleasesFeature {
  const { clock, logger } = parts;
  const appDocuments = appDocumentsOn(parts.store.documents, logger);
  const developer = createDeveloperClient({ serviceUrl: parts.config.SERVICE_URL, clock });
  const developerCache = new DeveloperCache(clock);
  const poller = new ReleasePoller({
    documents: appDocuments,
    developer,
    secrets: parts.secrets,
    poster: parts.poster,
    findPosted: parts.findPosted,
    nonceWindowMs: parts.nonceWindowMs,
    cache: developerCache,
    clock,
    timers: parts.timers,
    logger,
    ...(options.intervals ? { intervals: options.intervals } : {}),
    ...(options.onPollHealth ? { onPollHealth: options.onPollHealth.bind(options) } : {}),
  });
  return {
    poller,
    deps: {
      appDocuments,
      developer,
      developerCache,
      releases: poller,
      appDrafts: new Drafts(clock),
      downloadAttachment: createAttachmentDownloader(),
      secrets: parts.secrets,
      poster: parts.poster,
    },
    jobs: [poller],
    // A developer key kept, and polled with, for a guild the bot left while down.
    keptGuilds: async () => (await appDocuments.listGuilds()).map((guild) => guild.guildId),
  };
}
