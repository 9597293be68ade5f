import { Client } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { createPostFinder, type PostFinder } from '../../src/discord/posting/find-post.js';
import { createPoster, type Poster } from '../../src/discord/posting/poster.js';

let discord: FakeDiscord;
let client: Client;
let poster: Poster;
let findPosted: PostFinder;
let channelId: string;
let memberId: string;

const card = {
  embeds: [{ title: 'Case #7 · Ban', description: 'Griefing', footer: { text: 'Delivery d-7' } }],
};

beforeEach(async () => {
  discord = await startFakeDiscord();
  const guild = discord.addGuild({ channels: [{ name: 'feed' }] });
  channelId = guild.channels['feed'] ?? '';
  memberId = discord.addMember(guild.id, { username: 'chatty' });
  // Only the REST side of discord.js, as in a feed process that does not hold the gateway.
  client = new Client({ intents: [], rest: { api: discord.apiUrl, retries: 0 } });
  client.rest.setToken(discord.botToken);
  poster = createPoster(client, { token: discord.botToken });
  findPosted = createPostFinder(client, discord.botToken);
});

afterEach(async () => {
  await client.destroy();
  await discord.close();
});

/** Members chat in the channel: `count` messages of their own. */
function chat(count: number, from = 0): void {
  for (let n = from; n < from + count; n += 1) {
    discord.postMessageAs(channelId, { userId: memberId }, { content: `message ${n}` });
  }
}

describe("the finder of the bot's earlier post", () => {
  it('finds the post when it is the 150th message since it was written down, and the 150th back', async () => {
    const writtenAt = Date.now();
    // A busy channel: 149 messages before Discord made the post (its send was slow), and 149 after it.
    chat(149);
    const postId = await poster.post(channelId, card, 'nonce-busy');
    chat(149, 149);
    expect(discord.messages(channelId)).toHaveLength(299);
    expect(discord.messages(channelId).at(-150)?.id).toBe(postId);

    expect(await findPosted(channelId, card, writtenAt)).toBe(postId);
    // Read a page at a time, forward from when it was written down: the post is on the second page.
    const reads = discord.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/messages'));
    expect(reads).toHaveLength(2);
  });

  it("never takes a look-alike by a webhook or a member for the bot's post", async () => {
    const writtenAt = Date.now();
    // Another integration's webhook shows the same embeds, and a member quotes the card's words.
    discord.postMessageAs(channelId, { webhook: 'Look-alike' }, card);
    discord.postMessageAs(channelId, { userId: memberId }, { content: 'Case #7 · Ban' });
    expect(await findPosted(channelId, card, writtenAt)).toBeUndefined();

    const postId = await poster.post(channelId, card, 'nonce-real');
    discord.postMessageAs(channelId, { webhook: 'Look-alike' }, card);
    expect(await findPosted(channelId, card, writtenAt)).toBe(postId);
  });

  it('reads at most ten pages: a channel far busier than that since the write-down is not read to its end', async () => {
    const writtenAt = Date.now();
    chat(1_050);
    await poster.post(channelId, card, 'nonce-late');
    expect(await findPosted(channelId, card, writtenAt)).toBeUndefined();
    const reads = discord.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/messages'));
    expect(reads).toHaveLength(10);
  });
});
