import { Client } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startFakeDiscord, type AddedGuild, type FakeDiscord } from '../../fakes/discord/index.js';
import { createPoster, type Poster } from '../../src/discord/posting/poster.js';
import { SendError } from '../../src/discord/posting/send-failure.js';

let discord: FakeDiscord;
let client: Client;
let guild: AddedGuild;
let poster: Poster;

beforeEach(async () => {
  discord = await startFakeDiscord();
  guild = discord.addGuild({ channels: [{ name: 'feed' }] });
  // Only the REST side of discord.js: the poster needs no gateway.
  client = new Client({ intents: [], rest: { api: discord.apiUrl, retries: 0 } });
  client.rest.setToken(discord.botToken);
  poster = createPoster(client, { token: discord.botToken });
});

afterEach(async () => {
  await client.destroy();
  await discord.close();
});

describe('the one poster', () => {
  it('sends the nonce with enforce_nonce, and pings nobody unless the body says whom', async () => {
    const channelId = guild.channels['feed'] ?? '';
    const roleId = guild.everyoneRoleId;
    await poster.post(channelId, { content: '@everyone look', embeds: [] }, 'nonce-plain');
    await poster.post(
      channelId,
      { content: `<@&${roleId}>`, embeds: [], allowed_mentions: { parse: [], roles: [roleId] } },
      'nonce-role',
    );
    // A retry under the same nonce lands on the first message.
    const again = await poster.post(channelId, { content: 'retried', embeds: [] }, 'nonce-plain');

    const messages = discord.messages(channelId);
    expect(messages.map((message) => [message.nonce, message.body['enforce_nonce']])).toEqual([
      ['nonce-plain', true],
      ['nonce-role', true],
    ]);
    expect(messages.map((message) => message.allowed_mentions)).toEqual([
      { parse: [] },
      { parse: [], roles: [roleId] },
    ]);
    expect(again).toBe(messages[0]?.id);
  });

  it('allows exactly the mentions its content names, in a post and in an edit', async () => {
    const channelId = guild.channels['feed'] ?? '';
    const [role, other] = ['400000000000000001', '400000000000000002'];
    const [user, stranger] = ['500000000000000001', '500000000000000002'];
    // Allowed more than it names (a role its text leaves out, a user it does not ping); names one it does not allow.
    const id = await poster.post(
      channelId,
      {
        content: `<@${user}> <@${stranger}> see <@&${role}>`,
        embeds: [],
        allowed_mentions: { parse: [], roles: [role, other], users: [user] },
      },
      'nonce-mentions',
    );
    await poster.edit(channelId, id, { content: '', embeds: [], allowed_mentions: { parse: [], roles: [role] } });

    const [post, edit] = discord.requests.filter((request) => request.path.startsWith(`/channels/${channelId}/`));
    expect((post?.body as { allowed_mentions: unknown }).allowed_mentions).toEqual({
      parse: [],
      roles: [role],
      users: [user],
    });
    expect((edit?.body as { allowed_mentions: unknown }).allowed_mentions).toEqual({ parse: [] });
  });

  it('rejects with what a failure means, and takes the token back after a 401', async () => {
    const channelId = guild.channels['feed'] ?? '';
    discord.failChannel(channelId, { status: 403 });
    const refused = await poster.post(channelId, { embeds: [], content: 'x' }, 'n1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SendError);
    expect((refused as SendError).failure).toMatchObject({ kind: 'broken', status: 403 });
    discord.restoreChannel(channelId);

    discord.failRequests({ status: 401, count: 1 });
    const unauthorized = await poster
      .post(channelId, { content: 'x', embeds: [] }, 'n2')
      .catch((error: unknown) => error);
    expect((unauthorized as SendError).failure.kind).toBe('unauthorized');
    // The next try reaches Discord again instead of failing for want of a token.
    await expect(poster.post(channelId, { content: 'x', embeds: [] }, 'n2')).resolves.toEqual(expect.any(String));
  });
});
