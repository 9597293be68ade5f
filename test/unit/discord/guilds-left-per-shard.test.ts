import type { Client } from 'discord.js';
import { describe, expect, it } from 'vitest';

import { guildIdOnShard } from '../../../fakes/discord/index.js';
import { shardOfGuild } from '../../../src/discord/snowflake.js';
import type { Feature } from '../../../src/features/feature.js';
import { forgetGuildsLeftWhileDown } from '../../../src/guilds-left-while-down.js';
import type { DocumentStore } from '../../../src/store/documents.js';
import { captureLogs } from '../../helpers/capture-logs.js';

const BOT = '100000000000000042';

/** The one document the check reads: the store's bot, already known. */
function documentsOf(userId: string): DocumentStore {
  let identity: unknown = { userId };
  const documents: Pick<DocumentStore, 'update'> = {
    update: (_kind, _key, change) => {
      identity = change(identity);
      return Promise.resolve(identity as never);
    },
  };
  return documents as DocumentStore;
}

/** A shard's client, ready: its cache holds its own shard's guilds only. */
function shardClient(guildIds: readonly string[]): Client<true> {
  return { user: { id: BOT }, guilds: { cache: new Set(guildIds) } } as unknown as Client<true>;
}

describe("the guilds left while the bot was down, at one shard's ready", () => {
  const present = guildIdOnShard(0, 2);
  const onTheOtherShard = guildIdOnShard(1, 2);
  const left = guildIdOnShard(0, 2);
  const keeping: Feature = { deps: {}, keptGuilds: () => Promise.resolve([present, onTheOtherShard, left]) };

  it('forgets only the guilds of its own shard that it is no longer in', async () => {
    const removed: string[] = [];
    const forgotten = await forgetGuildsLeftWhileDown({
      client: shardClient([present]),
      features: [keeping],
      documents: documentsOf(BOT),
      removed: (guildId) => Promise.resolve(void removed.push(guildId)),
      logger: captureLogs().logger,
      speaksFor: (guildId) => shardOfGuild(guildId, 2) === 0,
    });
    expect(forgotten).toEqual([left]);
    expect(removed).toEqual([left]);
  });

  it('puts every guild on the shard Discord sends it on: (id >> 22) % shards, direct messages on 0', () => {
    for (const count of [1, 2, 7, 20]) {
      for (let shard = 0; shard < count; shard += 1)
        expect(shardOfGuild(guildIdOnShard(shard, count), count)).toBe(shard);
    }
    expect(shardOfGuild(null, 20)).toBe(0);
  });
});
