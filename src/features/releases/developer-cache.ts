import type { Clock } from '../../base/clock.js';
import type { AppSummary, CatalogApp, DeveloperOptions } from '../../upstream/developer-schemas.js';
import { SingleFlightCache } from './single-flight-cache.js';

/**
 * The catalog (the service's app store) is the same for every key and changes slowly: one copy, refreshed at most
 * every 10 minutes.
 */
export const CATALOG_TTL_MS = 10 * 60 * 1000;
/** A guild's app list: refreshed by every poll; for commands, good for a minute. */
export const APPS_TTL_MS = 60 * 1000;
/** Categories and limits hardly change: an hour. */
export const OPTIONS_TTL_MS = 60 * 60 * 1000;

/**
 * What the developer API answered that commands read again and again: a guild's apps (autocomplete never
 * costs a request per keystroke), the options submissions are checked against, and the catalog (/store).
 */
export class DeveloperCache {
  /** By guild id. */
  readonly apps: SingleFlightCache<AppSummary[]>;
  /** By guild id (the guild's key decides the account). */
  readonly options: SingleFlightCache<DeveloperOptions>;
  /** One entry: the catalog. */
  readonly catalog: SingleFlightCache<CatalogApp[]>;

  constructor(clock: Clock) {
    this.apps = new SingleFlightCache(clock, APPS_TTL_MS);
    this.options = new SingleFlightCache(clock, OPTIONS_TTL_MS);
    this.catalog = new SingleFlightCache(clock, CATALOG_TTL_MS);
  }

  /** Forgets what a guild's previous key read (a new key may be another account). */
  forgetGuild(guildId: string): void {
    this.apps.delete(guildId);
    this.options.delete(guildId);
  }
}
