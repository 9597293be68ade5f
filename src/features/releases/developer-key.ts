import type { Clock } from '../../base/clock.js';
import { UserFacingError } from '../../base/errors.js';
import type { Logger } from '../../base/logger.js';
import type { SecretBox } from '../../store/secret-box.js';
import type { DeveloperCaller } from '../../upstream/developer-client.js';
import type { ServiceApiError } from '../../upstream/service-api-error.js';
import { callService } from '../../upstream/service-failure.js';
import type { AppDocuments, AppGuild } from './app-documents.js';
import { isKeyRefusal, markKeyRefused } from './key-refusal.js';

/** What an admin pasted into the /app key dialog: a usable developer key, or why not (never quoting it). */
export type DeveloperKeyInput = { ok: true; key: string } | { ok: false; problem: string };

const DEVELOPER_KEY_PREFIX = 'upk_';
const SERVER_KEY_PREFIX = 'usk_';
/** Printable ASCII without spaces: what can travel as a Bearer token. */
const KEY_PATTERN = /^upk_[\x21-\x7e]+$/;
const MIN_KEY_BODY = 8;
const MAX_KEY_LENGTH = 1024;

/**
 * Checks a pasted developer key (upstream-api.md §5.2: developer keys start `upk_`, server keys `usk_`); the
 * mirror of the /setup check. A leading "Bearer " is forgiven.
 */
export function readDeveloperKeyInput(raw: string): DeveloperKeyInput {
  const text = raw.trim().replace(/^bearer\s+/i, '');
  if (text.startsWith(SERVER_KEY_PREFIX)) {
    return refuse(
      'That is a server key (usk_…): it belongs to the server API v2 and /setup, for the feed of game events. ' +
        'The app commands need the developer key of the developer API, which starts with upk_. Make one on the ' +
        'API key page of the developer portal, then run /app key again.',
    );
  }
  if (!text.startsWith(DEVELOPER_KEY_PREFIX)) {
    return refuse(
      'That is not a developer key: developer keys start with upk_. Copy it from the API key page and run /app key again.',
    );
  }
  if (!KEY_PATTERN.test(text) || text.length > MAX_KEY_LENGTH) {
    return refuse(
      'That key has spaces, line breaks or unusual characters inside: copy it again and run /app key again.',
    );
  }
  if (text.length < DEVELOPER_KEY_PREFIX.length + MIN_KEY_BODY) {
    return refuse('That key is too short to be a whole developer key: copy all of it and run /app key again.');
  }
  return { ok: true, key: text };
}

/** What opening and using the guild's developer key needs. */
export interface DeveloperKeyDeps {
  documents: Pick<AppDocuments, 'updateGuild'>;
  secrets: SecretBox;
  logger: Logger;
  clock: Clock;
}

/**
 * The guild's developer key in clear, for one call.
 * @throws UserFacingError when no key is set, the service refused it, or it cannot be decrypted
 */
export function openDeveloperKey(deps: Pick<DeveloperKeyDeps, 'secrets' | 'logger'>, guild: AppGuild): string {
  if (guild.developerKey === null) {
    throw new UserFacingError('No developer key yet: someone with Manage Server runs /app key first.');
  }
  if (guild.keyRefusal !== null) {
    throw new UserFacingError(
      guild.keyRefusal.status === 401
        ? 'The service no longer accepts the stored developer key (401: it was replaced or revoked): someone with Manage Server must run /app key with the current upk_… key.'
        : "The service says this account's developer access was revoked (403): the account owner must have it restored, then someone with Manage Server runs /app key.",
    );
  }
  try {
    return deps.secrets.open(guild.developerKey);
  } catch (error) {
    deps.logger.error(
      { guildId: guild.guildId, problem: error instanceof Error ? error.message : 'unknown' },
      'stored developer key cannot be opened',
    );
    throw new UserFacingError(
      "The stored developer key cannot be decrypted with this bot's SECRET_KEY (it was changed or removed): run /app key to store the key again.",
    );
  }
}

/**
 * One call to the developer API for a command, with the guild's key: a failure becomes "Could not <action>:
 * <why>." for the user, and a 401 or 403 is also written down, which stops polling and brings the one admin
 * message, until a new key is set.
 */
export async function callDeveloper<T>(
  deps: DeveloperKeyDeps,
  guild: AppGuild,
  action: string,
  call: (caller: DeveloperCaller) => Promise<T>,
  special?: (error: ServiceApiError) => string | undefined,
): Promise<T> {
  const key = openDeveloperKey(deps, guild);
  return callService(
    action,
    async () => {
      try {
        return await call({ key, purpose: 'command' });
      } catch (error) {
        if (isKeyRefusal(error)) await markKeyRefused(deps.documents, guild.guildId, error.status, deps.clock());
        throw error;
      }
    },
    special,
  );
}

function refuse(problem: string): DeveloperKeyInput {
  return { ok: false, problem };
}
