import { UserFacingError } from '../../base/errors.js';
import type { Logger } from '../../base/logger.js';
import type { GuildSettingsStore } from '../../store/guild-settings.js';
import type { SecretBox } from '../../store/secret-box.js';

/** Where a guild's server key is kept and how it is sealed. */
export interface ServerKeyDeps {
  guilds: GuildSettingsStore;
  secrets: SecretBox;
  logger: Logger;
}

/** What an admin pasted into /setup: a usable server key, or why it is not one (never quoting it). */
export type ServerKeyInput = { ok: true; key: string } | { ok: false; problem: string };

const SERVER_KEY_PREFIX = 'usk_';
const DEVELOPER_KEY_PREFIX = 'upk_';
/** Printable ASCII without spaces: what can travel as a Bearer token (the service client refuses the rest). */
const KEY_PATTERN = /^usk_[\x21-\x7e]+$/;
/** Shorter than this after the prefix cannot be a whole key: most likely a copy cut short. */
const MIN_KEY_BODY = 8;
const MAX_KEY_LENGTH = 1024;

/**
 * Checks a pasted server key (upstream-api.md §5.2: server keys start `usk_`, developer keys `upk_`).
 * A leading "Bearer " is forgiven: people copy it from request examples.
 */
export function readServerKeyInput(raw: string): ServerKeyInput {
  const text = raw.trim().replace(/^bearer\s+/i, '');
  if (text.startsWith(DEVELOPER_KEY_PREFIX)) {
    return refuse(
      'That is a developer key (upk_…): it manages apps through the developer API. This bot needs the server key ' +
        'of the server API v2, which starts with usk_. Make one on the API key page, then run /setup again.',
    );
  }
  if (!text.startsWith(SERVER_KEY_PREFIX)) {
    return refuse(
      'That is not a server key: server keys start with usk_. Copy it from the API key page and run /setup again.',
    );
  }
  if (!KEY_PATTERN.test(text) || text.length > MAX_KEY_LENGTH) {
    return refuse('That key has spaces, line breaks or unusual characters inside: copy it again and run /setup again.');
  }
  if (text.length < SERVER_KEY_PREFIX.length + MIN_KEY_BODY) {
    return refuse('That key is too short to be a whole server key: copy all of it and run /setup again.');
  }
  return { ok: true, key: text };
}

/** Stores the guild's server key, sealed; returns whether a key was replaced. */
export async function saveServerKey(
  deps: Pick<ServerKeyDeps, 'guilds' | 'secrets'>,
  guildId: string,
  key: string,
): Promise<boolean> {
  let replaced = false;
  await deps.guilds.update(guildId, (settings) => {
    replaced = settings.serverKey !== null;
    return { ...settings, serverKey: deps.secrets.seal(key) };
  });
  return replaced;
}

/**
 * The guild's server key in clear, for one call to the service.
 * @throws UserFacingError when no key is set, or when it cannot be decrypted (SECRET_KEY changed or removed)
 */
export async function openServerKey(deps: ServerKeyDeps, guildId: string): Promise<string> {
  const { serverKey: sealed } = await deps.guilds.get(guildId);
  if (sealed === null) throw new UserFacingError('No server key yet: run /setup first.');
  try {
    return deps.secrets.open(sealed);
  } catch (error) {
    // The host must hear of it too: every guild's key is affected, not only this one.
    deps.logger.error(
      { guildId, problem: error instanceof Error ? error.message : 'unknown' },
      'stored server key cannot be opened',
    );
    throw new UserFacingError(
      "The stored server key cannot be decrypted with this bot's SECRET_KEY (it was changed or removed): run /setup to store the key again.",
    );
  }
}

function refuse(problem: string): ServerKeyInput {
  return { ok: false, problem };
}
