import { createKeyvFactory } from '../store/keyv-factory.js';
import { TypedCollection } from '../store/typed-collection.js';
import {
  AppGuildSchema,
  CardSetSchema,
  emptyAppGuild,
  emptyCardSet,
  type AppGuild,
  type AppRecords,
  type CardSet,
} from './app-records.js';
import { KeyedLock } from './keyed-lock.js';

/** {@link AppRecords} that can be closed: the keyv implementation owns its connections. */
export interface ClosableAppRecords extends AppRecords {
  close(): Promise<void>;
}

/**
 * {@link AppRecords} on keyv: two namespaces (`app_guilds`, `app_cards`) in the store `STORE_URL` names, beside
 * the bot's other records (SQLite: tables of their own in the same file). Writes are serialised per record by
 * a {@link KeyedLock}; this process is the store's only writer (one process per SQLite file).
 */
export async function openKeyvAppRecords(storeUrl: string): Promise<ClosableAppRecords> {
  const factory = createKeyvFactory(storeUrl);
  try {
    // One after the other, as openStore does: SQLite connections opened at once race for the WAL lock.
    const guilds = new TypedCollection(await factory.open('app_guilds'), AppGuildSchema, 'app guild');
    const cards = new TypedCollection(await factory.open('app_cards'), CardSetSchema, 'release cards');
    return new KeyvAppRecords(guilds, cards, () => factory.close());
  } catch (error) {
    await factory.close();
    throw error;
  }
}

class KeyvAppRecords implements ClosableAppRecords {
  private readonly lock = new KeyedLock();

  constructor(
    private readonly guilds: TypedCollection<typeof AppGuildSchema>,
    private readonly cards: TypedCollection<typeof CardSetSchema>,
    readonly close: () => Promise<void>,
  ) {}

  async readGuild(guildId: string): Promise<AppGuild> {
    return (await this.guilds.get(guildId)) ?? emptyAppGuild(guildId);
  }

  updateGuild(guildId: string, change: (guild: AppGuild) => AppGuild): Promise<AppGuild> {
    return this.lock.run(`guild:${guildId}`, async () => {
      const next = AppGuildSchema.parse(change(await this.readGuild(guildId)));
      await this.guilds.set(guildId, next);
      return structuredClone(next);
    });
  }

  async listGuilds(): Promise<AppGuild[]> {
    return (await this.guilds.entries()).map(([, guild]) => guild);
  }

  async readCards(guildId: string, appId: string): Promise<CardSet> {
    return (await this.cards.get(cardKey(guildId, appId))) ?? emptyCardSet(guildId, appId);
  }

  updateCards(guildId: string, appId: string, change: (cards: CardSet) => CardSet): Promise<CardSet> {
    const key = cardKey(guildId, appId);
    return this.lock.run(`cards:${key}`, async () => {
      const next = CardSetSchema.parse(change(await this.readCards(guildId, appId)));
      await this.cards.set(key, next);
      return structuredClone(next);
    });
  }

  deleteCards(guildId: string, appId: string): Promise<void> {
    const key = cardKey(guildId, appId);
    return this.lock.run(`cards:${key}`, () => this.cards.delete(key));
  }
}

function cardKey(guildId: string, appId: string): string {
  return `${guildId}:${appId}`;
}
