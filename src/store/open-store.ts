import { GuildSettingsRepository, GuildSettingsSchema } from './guild-settings.js';
import { HookRecordSchema, HookRepository } from './hooks.js';
import { createKeyvFactory } from './keyv-factory.js';
import { Outbox, OutboxEntrySchema } from './outbox.js';
import { PendingSends, PendingSendSchema } from './pending-sends.js';
import { SeenDeliveries, SeenRecordSchema } from './seen-deliveries.js';
import { TypedCollection } from './typed-collection.js';

/** Everything the bot keeps, behind typed repositories. */
export interface Store {
  readonly kind: 'memory' | 'sqlite';
  readonly hooks: HookRepository;
  readonly seen: SeenDeliveries;
  readonly outbox: Outbox;
  readonly guilds: GuildSettingsRepository;
  readonly sends: PendingSends;
  close(): Promise<void>;
}

/**
 * Opens the store `storeUrl` names (`sqlite://path`, `memory://`) and loads the outbox index.
 * @param now the clock used for record timestamps; tests pass their own.
 */
export async function openStore(storeUrl: string, now: () => number = Date.now): Promise<Store> {
  const factory = createKeyvFactory(storeUrl);
  try {
    // One after the other: SQLite connections opened at once race for the lock that WAL recovery and the
    // journal-mode switch take, and the loser fails with SQLITE_BUSY instead of waiting.
    const hooks = await factory.open('hooks');
    const seen = await factory.open('seen');
    const outbox = await factory.open('outbox');
    const guilds = await factory.open('guilds');
    const sends = await factory.open('sends');
    return {
      kind: factory.kind,
      hooks: new HookRepository(new TypedCollection(hooks, HookRecordSchema, 'hook')),
      seen: await SeenDeliveries.load(new TypedCollection(seen, SeenRecordSchema, 'seen delivery'), now),
      outbox: await Outbox.load(new TypedCollection(outbox, OutboxEntrySchema, 'outbox')),
      guilds: await GuildSettingsRepository.load(new TypedCollection(guilds, GuildSettingsSchema, 'guild settings')),
      sends: await PendingSends.load(new TypedCollection(sends, PendingSendSchema, 'pending send')),
      close: () => factory.close(),
    };
  } catch (error) {
    await factory.close();
    throw error;
  }
}
