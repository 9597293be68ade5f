import type { AppDocuments } from './features/releases/app-documents.js';
import { cannotOpen } from './seal-stored-secrets.js';
import type { GuildSettingsStore } from './store/guild-settings.js';
import type { HookStore } from './store/hooks.js';
import type { SecretBox } from './store/secret-box.js';

/** The stores that hold secrets, and what forgetting one needs. */
export interface LostSecretsStores {
  hooks: Pick<HookStore, 'listAll' | 'remove'>;
  guilds: Pick<GuildSettingsStore, 'listAll' | 'update'>;
  apps: Pick<AppDocuments, 'listGuilds' | 'updateGuild'>;
  /** The SecretBox of the SECRET_KEY the bot runs with now (or none). */
  secrets: SecretBox;
}

/** What a lost SECRET_KEY left unreadable, named by ids only: never a value. */
export interface LostSecrets {
  /** Webhooks whose signing secret cannot be opened: the service's webhook id (null: not registered yet), the server. */
  webhooks: Array<{ hookId: string; webhookId: string | null; guildId: string }>;
  /** Servers whose server key cannot be opened. */
  serverKeys: string[];
  /** Servers whose developer key cannot be opened. */
  developerKeys: string[];
}

/** The stored secrets this SecretBox cannot open (sealed with another SECRET_KEY, or sealed while none is set). */
export async function findLostSecrets(stores: LostSecretsStores): Promise<LostSecrets> {
  const { secrets } = stores;
  return {
    webhooks: (await stores.hooks.listAll())
      .filter((hook) => cannotOpen(hook.secret, secrets))
      .map(({ hookId, webhookId, guildId }) => ({ hookId, webhookId, guildId })),
    serverKeys: (await stores.guilds.listAll())
      .filter((guild) => cannotOpen(guild.serverKey, secrets))
      .map((guild) => guild.guildId),
    developerKeys: (await stores.apps.listGuilds())
      .filter((app) => cannotOpen(app.developerKey, secrets))
      .map((app) => app.guildId),
  };
}

/**
 * Forgets what a lost SECRET_KEY left unreadable, so the bot starts again: each such webhook is removed (its
 * deliveries answer 404 until an admin runs /webhook register), each such server or developer key is emptied (set
 * again with /setup or /app key). Everything else stays. A value changed since it was found (set again meanwhile)
 * is left as it is.
 */
export async function forgetLostSecrets(stores: LostSecretsStores, lost: LostSecrets): Promise<void> {
  const { secrets } = stores;
  for (const { hookId } of lost.webhooks) await stores.hooks.remove(hookId);
  for (const guildId of lost.serverKeys) {
    await stores.guilds.update(guildId, (settings) =>
      cannotOpen(settings.serverKey, secrets) ? { ...settings, serverKey: null } : settings,
    );
  }
  for (const guildId of lost.developerKeys) {
    await stores.apps.updateGuild(guildId, (app) =>
      cannotOpen(app.developerKey, secrets) ? { ...app, developerKey: null, keySetAt: null } : app,
    );
  }
}
