import type { Logger } from '../../base/logger.js';
import type { DocumentStore } from '../../store/documents.js';
import {
  AppGuildSchema,
  CardSetSchema,
  emptyAppGuild,
  emptyCardSet,
  SentFieldsSchema,
  type AppDocuments,
  type AppGuild,
  type CardSet,
} from './app-documents.js';

/** The store's document kinds of the developer-API features. */
const GUILD_KIND = 'app_guild';
const CARDS_KIND = 'app_cards';
const SENT_KIND = 'app_sent';

/**
 * {@link AppDocuments} on the store's documents (SQLite or PostgreSQL, beside the bot's other documents): each
 * change is one atomic update of its document, in any number of processes. Every read is checked against the
 * document's schema, so a document written by an older version fails loudly where it is read; `listGuilds` passes
 * such a guild over (told to `logger`), so one guild's damaged document stops no other guild's polls.
 */
export function appDocumentsOn(documents: DocumentStore, logger?: Logger): AppDocuments {
  const readGuild = async (guildId: string): Promise<AppGuild> => {
    const stored = await documents.get(GUILD_KIND, guildId);
    return stored === undefined ? emptyAppGuild(guildId) : AppGuildSchema.parse(stored);
  };
  const readCards = async (guildId: string, appId: string): Promise<CardSet> => {
    const stored = await documents.get(CARDS_KIND, appKey(guildId, appId));
    return stored === undefined ? emptyCardSet(guildId, appId) : CardSetSchema.parse(stored);
  };
  return {
    readGuild,
    async updateGuild(guildId, change) {
      const stored = await documents.update(GUILD_KIND, guildId, (current) =>
        AppGuildSchema.parse(change(current === undefined ? emptyAppGuild(guildId) : AppGuildSchema.parse(current))),
      );
      return AppGuildSchema.parse(stored);
    },
    async listGuilds() {
      // A document that fails its schema (damaged, or written by hand) is passed over: the other guilds are polled.
      // Its own guild's reads still fail loudly where they read it (/app, /status).
      return (await documents.list(GUILD_KIND)).flatMap(({ key, value }) => {
        const parsed = AppGuildSchema.safeParse(value);
        if (parsed.success) return [parsed.data];
        logger?.warn({ guildId: key }, "a guild's developer-API record could not be read; it is not polled");
        return [];
      });
    },
    readCards,
    async updateCards(guildId, appId, change) {
      const stored = await documents.update(CARDS_KIND, appKey(guildId, appId), (current) =>
        CardSetSchema.parse(
          change(current === undefined ? emptyCardSet(guildId, appId) : CardSetSchema.parse(current)),
        ),
      );
      return CardSetSchema.parse(stored);
    },
    deleteCards: (guildId, appId) => documents.delete(CARDS_KIND, appKey(guildId, appId)),
    async readSentFields(guildId, appId) {
      const stored = await documents.get(SENT_KIND, appKey(guildId, appId));
      return stored === undefined ? undefined : SentFieldsSchema.parse(stored);
    },
    async writeSentFields(guildId, appId, sent) {
      const value = SentFieldsSchema.parse(sent);
      await documents.update(SENT_KIND, appKey(guildId, appId), () => value);
    },
  };
}

function appKey(guildId: string, appId: string): string {
  return `${guildId}:${appId}`;
}
