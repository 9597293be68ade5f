import { StartupError } from './base/startup-error.js';
import type { AppDocuments } from './features/releases/app-documents.js';
import type { GuildSettingsStore } from './store/guild-settings.js';
import type { HookStore } from './store/hooks.js';
import { isSealed, type SecretBox } from './store/secret-box.js';

/** How many stored values of each kind this start sealed (counts only: never a value). */
export interface SealedCounts {
  webhookSecrets: number;
  serverKeys: number;
  developerKeys: number;
}

/** The stores that hold secrets: webhook signing secrets, server keys, developer keys. */
export interface StoredSecrets {
  hooks: Pick<HookStore, 'listAll' | 'get' | 'save'>;
  guilds: Pick<GuildSettingsStore, 'listAll' | 'update'>;
  apps: Pick<AppDocuments, 'listGuilds' | 'updateGuild'>;
  secrets: SecretBox;
}

/**
 * Run at start, before anything reads a secret. First every sealed value must open with this SECRET_KEY:
 * a changed or removed key stops the start with one line, instead of a 500 on every delivery later. Then, when
 * SECRET_KEY is set, every value still stored as it is gets sealed, so setting SECRET_KEY later covers what
 * was stored before. Idempotent: a sealed value is left as it is.
 * @throws StartupError when a sealed value cannot be opened (its message names SECRET_KEY, never a value)
 */
export async function sealStoredSecrets(stored: StoredSecrets): Promise<SealedCounts> {
  const hooks = await stored.hooks.listAll();
  const guilds = await stored.guilds.listAll();
  const apps = await stored.apps.listGuilds();
  const values = [
    ...hooks.map((hook) => hook.secret),
    ...guilds.map((guild) => guild.serverKey),
    ...apps.map((app) => app.developerKey),
  ];
  refuseUnopenable(values, stored.secrets);
  const counts: SealedCounts = { webhookSecrets: 0, serverKeys: 0, developerKeys: 0 };
  if (!stored.secrets.encrypts) return counts;
  const seal = (value: string | null) => (isPlain(value) ? stored.secrets.seal(value) : value);

  for (const { hookId, secret } of hooks) {
    if (!isPlain(secret)) continue;
    // Read again: another process may have changed or removed the hook since the list was read.
    const hook = await stored.hooks.get(hookId);
    if (hook === undefined || isSealed(hook.secret)) continue;
    await stored.hooks.save({ ...hook, secret: stored.secrets.seal(hook.secret) });
    counts.webhookSecrets += 1;
  }
  for (const { guildId, serverKey } of guilds) {
    if (!isPlain(serverKey)) continue;
    // A flag, not a count inside the change: a store may run a change again when its transaction is retried.
    let sealedHere = false;
    await stored.guilds.update(guildId, (settings) => {
      sealedHere = isPlain(settings.serverKey);
      return { ...settings, serverKey: seal(settings.serverKey) };
    });
    if (sealedHere) counts.serverKeys += 1;
  }
  for (const { guildId, developerKey } of apps) {
    if (!isPlain(developerKey)) continue;
    let sealedHere = false;
    await stored.apps.updateGuild(guildId, (app) => {
      sealedHere = isPlain(app.developerKey);
      return { ...app, developerKey: seal(app.developerKey) };
    });
    if (sealedHere) counts.developerKeys += 1;
  }
  return counts;
}

function isPlain(value: string | null): value is string {
  return value !== null && !isSealed(value);
}

/** Whether a stored value is sealed and this SecretBox cannot open it (another SECRET_KEY, or none). */
export function cannotOpen(value: string | null, secrets: SecretBox): value is string {
  if (value === null || !isSealed(value)) return false;
  try {
    secrets.open(value);
    return false;
  } catch {
    return true;
  }
}

function refuseUnopenable(values: ReadonlyArray<string | null>, secrets: SecretBox): void {
  const unopenable = values.filter((value) => cannotOpen(value, secrets)).length;
  if (unopenable === 0) return;
  throw new StartupError(
    secrets.encrypts
      ? `${unopenable} stored secret(s) cannot be opened with this SECRET_KEY: it is not the key they were sealed with. Set SECRET_KEY back to that key and start again (a key lost for good: npm run forget-lost-secrets)`
      : `${unopenable} stored secret(s) are sealed, but SECRET_KEY is not set: set the SECRET_KEY they were sealed with and start again (a key lost for good: npm run forget-lost-secrets)`,
  );
}
