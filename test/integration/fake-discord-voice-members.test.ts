/**
 * The fake Discord's GUILD_CREATE lists members as Discord does for a bot without the presences intent: the bot
 * and the members in voice channels, with their voice states, and nobody else.
 */
import { ChannelType, Client, Events, GatewayIntentBits } from 'discord.js';
import { afterEach, expect, it } from 'vitest';

import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';

const running: { fake?: FakeDiscord; client?: Client } = {};

afterEach(async () => {
  await running.client?.destroy();
  await running.fake?.close();
  delete running.client;
  delete running.fake;
});

it('a client hears of the bot and the members in voice channels, each in their channel, and of nobody else', async () => {
  const fake = await startFakeDiscord();
  running.fake = fake;
  const guild = fake.addGuild({
    channels: [
      { id: '1100000000000000001', name: 'general' },
      { id: '1100000000000000002', name: 'Lounge', type: ChannelType.GuildVoice },
      { id: '1100000000000000003', name: 'Game', type: ChannelType.GuildVoice },
    ],
    roles: [{ id: '1100000000000000009', name: 'Regular', position: 1 }],
    membersInVoice: [
      {
        id: '1100000000000000011',
        username: 'talker',
        roleIds: ['1100000000000000009'],
        channelId: '1100000000000000002',
      },
      { id: '1100000000000000012', username: 'gamer', channelId: '1100000000000000003' },
    ],
  });
  // Without the presences intent, as the bot connects: discord.js's default caches keep what it is sent.
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiUrl } });
  running.client = client;
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(fake.botToken);
  await ready;

  const cached = client.guilds.cache.get(guild.id);
  expect([...(cached?.members.cache.keys() ?? [])].sort()).toEqual(
    [fake.botUserId, '1100000000000000011', '1100000000000000012'].sort(),
  );
  expect(cached?.members.cache.get('1100000000000000011')?.roles.cache.has('1100000000000000009')).toBe(true);
  expect(Object.fromEntries(cached?.voiceStates.cache.map((state, userId) => [userId, state.channelId]) ?? [])).toEqual(
    {
      '1100000000000000011': '1100000000000000002',
      '1100000000000000012': '1100000000000000003',
    },
  );
  // The test users are members too, but neither in voice nor the bot: Discord does not list them.
  expect(fake.memberRoles(guild.id, fake.users.admin.id)).toBeDefined();
  expect(cached?.members.cache.has(fake.users.admin.id)).toBe(false);
});

it('refuses a member in voice in a channel the guild does not have', async () => {
  const fake = await startFakeDiscord();
  running.fake = fake;
  expect(() => fake.addGuild({ membersInVoice: [{ username: 'lost', channelId: '1100000000000000099' }] })).toThrow(
    'No channel 1100000000000000099',
  );
});
