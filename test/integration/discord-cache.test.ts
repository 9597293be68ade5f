/**
 * What the bot's discord.js client (createDiscordClient) keeps of a realistic guild (30 channels, 25 roles,
 * overwrites, members in voice): the guild, its roles and the bot's own member, nothing else; and what the bot
 * reads (a channel's permissions, a member's roles, a role changing) still reads what Discord says.
 */
import { Events, PermissionFlagsBits, type Role } from 'discord.js';
import { afterEach, expect, it } from 'vitest';

import {
  guildIdsOverShards,
  REALISTIC_GUILD,
  realisticGuildSpec,
  startFakeDiscord,
  type FakeDiscord,
} from '../../fakes/discord/index.js';
import { checkRoleGrant } from '../../src/discord/check-role-grant.js';
import { createDiscordClient } from '../../src/discord/create-client.js';
import { findMissingPermissions, type FeedChannel } from '../../src/discord/feed-channel.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start() {
  const fake: FakeDiscord = await startFakeDiscord();
  cleanups.push(() => fake.close());
  const [guildId = ''] = guildIdsOverShards(1, 1);
  const spec = realisticGuildSpec(guildId, 0, fake.botUserId);
  const guild = fake.addGuild(spec);
  const client = createDiscordClient({ apiUrl: fake.apiUrl });
  cleanups.push(() => client.destroy());
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(fake.botToken);
  await ready;
  const cached = client.guilds.cache.get(guild.id);
  if (!cached) throw new Error('the guild is not cached');
  return { fake, client, guild, spec, cached };
}

it('keeps the guild, its roles and its own member; no channel, overwrite, other member or voice state', async () => {
  const { fake, client, guild, spec, cached } = await start();
  expect(guild.channelIds).toHaveLength(REALISTIC_GUILD.channels);
  expect(spec.membersInVoice).toHaveLength(REALISTIC_GUILD.membersInVoice);

  expect(cached.roles.cache.size).toBe(REALISTIC_GUILD.roles);
  expect([...cached.members.cache.keys()]).toEqual([fake.botUserId]);
  expect(cached.members.me?.roles.cache.has(guild.botRoleId)).toBe(true);
  expect(client.channels.cache.size).toBe(0);
  expect(cached.channels.cache.size).toBe(0);
  expect(cached.voiceStates.cache.size).toBe(0);
  expect([...client.users.cache.keys()]).toEqual([fake.botUserId]);
});

it("checks a channel's permissions on what Discord says now: an overwrite the gateway never told of counts", async () => {
  const { fake, client, guild } = await start();
  const channelId = guild.channels['case-feed'] ?? '';
  const check = async () => findMissingPermissions((await client.channels.fetch(channelId)) as FeedChannel);
  // The Staff category's channels deny @everyone and let the bot in: it may post.
  expect(await check()).toEqual([]);

  // An admin takes Embed Links from the bot there; the gateway's CHANNEL_UPDATE is lost.
  const overwrite = { id: fake.botUserId, type: 1, allow: PermissionFlagsBits.ViewChannel } as const;
  fake.setChannelOverwrite(channelId, { ...overwrite, deny: PermissionFlagsBits.EmbedLinks }, { announce: false });
  expect(await check()).toEqual(['Embed Links']);
  // Read for the check, not kept.
  expect(client.channels.cache.size).toBe(0);
});

it("reads members' roles and hears of a role's change: the roles every permission and hierarchy check needs", async () => {
  const { fake, client, guild, spec, cached } = await start();
  const [talker] = spec.membersInVoice ?? [];
  const verified = guild.roles['Verified'] ?? '';
  // As the digest reads a member's quota role: fetched, its roles read from the guild's cached roles, not kept.
  const member = await cached.members.fetch(talker?.id ?? '');
  expect(member.roles.cache.has(verified)).toBe(true);
  expect(member.roles.cache.has(guild.roles['Moderator'] ?? '')).toBe(false);
  expect(cached.members.cache.has(member.id)).toBe(false);

  // The bot has no Manage Roles: the role-grant check says so, from the roles and members Discord gives now.
  expect(await checkRoleGrant(client, guild.id, guild.roles['On Duty'] ?? '', null, 'on-duty role')).toMatch(
    /I need the Manage Roles permission/,
  );

  // The on-duty role keeper hears of a role that changed under it.
  const updated = new Promise<Role>((resolve) => client.once(Events.GuildRoleUpdate, (_old, role) => resolve(role)));
  fake.editRole(guild.id, verified, { permissions: PermissionFlagsBits.ViewChannel });
  expect((await updated).permissions.has(PermissionFlagsBits.SendMessages)).toBe(false);
});
