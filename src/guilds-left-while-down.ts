import type { Client } from 'discord.js';
import { z } from 'zod';

import type { Logger } from './base/logger.js';
import { toLoggableError } from './discord/log-error.js';
import type { Feature } from './features/feature.js';
import type { DocumentStore } from './store/documents.js';

/** The bot user a store belongs to: a store written by another bot's token forgets nothing here. */
const IDENTITY = { kind: 'bot', key: 'identity' } as const;
const IdentitySchema = z.object({ userId: z.string() });

export interface LeftWhileDownDeps {
  /** Logged in and ready: its guild cache holds every guild the bot is in (READY lists unavailable ones too). */
  client: Client<true>;
  features: readonly Feature[];
  documents: DocumentStore;
  /**
   * The guilds this ready speaks for, where the gateway's shards are spread over processes: the client opened one
   * shard, and a guild of another is not in its cache without having been left. Absent: every guild.
   */
  speaksFor?: (guildId: string) => boolean;
  /** What a removal does (every feature's onGuildRemoved), as for GUILD_DELETE. */
  removed: (guildId: string) => Promise<void>;
  logger: Logger;
}

/**
 * Forgets the guilds the bot was removed from while it was down: Discord sends no GUILD_DELETE for those later,
 * so at the gateway's ready the guilds the features keep something for are compared with the guilds the bot is
 * in, and each one it is no longer in is forgotten as a removal is. Only by the bot the store belongs to: the
 * store remembers its bot user at the first ready, and a ready of another one (the token of another
 * application) changes nothing and says so. The first ready with this version only remembers the bot.
 *
 * @returns the guilds forgotten
 */
export async function forgetGuildsLeftWhileDown(deps: LeftWhileDownDeps): Promise<string[]> {
  const { client, logger } = deps;
  const userId = client.user.id;
  let known: string | undefined;
  await deps.documents.update(IDENTITY.kind, IDENTITY.key, (current) => {
    known = current === undefined ? undefined : IdentitySchema.parse(current).userId;
    return current ?? { userId };
  });
  if (known === undefined) return [];
  if (known !== userId) {
    logger.error(
      { storeBot: known, bot: userId },
      'this store belongs to another bot user: servers it keeps that this bot is not in are left as they are ' +
        '(check DISCORD_TOKEN and STORE_URL)',
    );
    return [];
  }
  const kept = new Set<string>();
  for (const feature of deps.features) for (const guildId of (await feature.keptGuilds?.()) ?? []) kept.add(guildId);
  const speaksFor = deps.speaksFor ?? (() => true);
  const left = [...kept].filter((guildId) => speaksFor(guildId) && !client.guilds.cache.has(guildId));
  for (const guildId of left) {
    logger.info({ guildId }, 'removed from a server while the bot was down');
    await deps
      .removed(guildId)
      .catch((error: unknown) =>
        logger.error({ guildId, err: toLoggableError(error) }, 'forgetting a server the bot left failed'),
      );
  }
  return left;
}
