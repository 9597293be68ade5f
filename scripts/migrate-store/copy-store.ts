import { openStore } from '../../src/store/open-store.js';

export interface Copied {
  hooks: number;
  guilds: number;
  deliveries: number;
}

/**
 * Copies what the bot must not lose from one store to another through the store port, so every engine's
 * guarantees hold on the way in (a delivery already in the target is a duplicate, not a second copy).
 * Settings go first: deliveries are routed by them as they arrive.
 */
export async function migrateStore(fromUrl: string, toUrl: string): Promise<Copied> {
  if (fromUrl === toUrl) throw new Error('--from and --to name the same store');
  const from = await openStore(fromUrl);
  try {
    const to = await openStore(toUrl);
    try {
      const hooks = await from.hooks.listAll();
      for (const hook of hooks) await to.hooks.save(hook);
      const guilds = await from.guilds.listAll();
      for (const settings of guilds) await to.guilds.update(settings.guildId, () => settings);
      let deliveries = 0;
      for (const entry of await from.deliveries.listOpen()) {
        const { hookId, guildId, deliveryId, event, rawBody, receivedAt } = entry;
        if ((await to.deliveries.accept({ hookId, guildId, deliveryId, event, rawBody, receivedAt })) === 'accepted') {
          deliveries += 1;
        }
      }
      return { hooks: hooks.length, guilds: guilds.length, deliveries };
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}
