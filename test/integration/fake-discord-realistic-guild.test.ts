/**
 * The realistic guilds of the fake Discord (fakes/discord/realistic-guild.ts), as the `guilds` benchmark and the
 * cache test build them: spread evenly over the shards, ids that never meet, the shape the benchmark's figures
 * name, and permissions a host would set (the bot posts to its feed channels, not to the other staff channels).
 */
import { ChannelType, PermissionFlagsBits } from 'discord.js';
import { afterEach, expect, it } from 'vitest';

import {
  guildIdsOverShards,
  REALISTIC_GUILD,
  realisticGuildSpec,
  shardOfGuild,
  startFakeDiscord,
  type FakeDiscord,
} from '../../fakes/discord/index.js';

const running: { fake?: FakeDiscord } = {};
afterEach(async () => {
  await running.fake?.close();
  delete running.fake;
});

it('spreads the guilds evenly over the shards, and no two guilds share a guild, role or channel id', () => {
  const ids = guildIdsOverShards(200, 7);
  const perShard = new Map<number, number>();
  for (const id of ids) perShard.set(shardOfGuild(id, 7), (perShard.get(shardOfGuild(id, 7)) ?? 0) + 1);
  expect([...perShard.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  expect(Math.max(...perShard.values()) - Math.min(...perShard.values())).toBeLessThanOrEqual(1);

  const all = ids.flatMap((id, index) => {
    const spec = realisticGuildSpec(id, index);
    return [
      id,
      ...(spec.roles ?? []).map((role) => role.id),
      ...(spec.channels ?? []).map((channel) => channel.id),
      ...(spec.membersInVoice ?? []).map((member) => member.id),
    ];
  });
  expect(new Set(all).size).toBe(all.length);
});

it('has the shape the benchmark names, and lets the bot into its feed channels only', async () => {
  const fake = await startFakeDiscord();
  running.fake = fake;
  const [id = ''] = guildIdsOverShards(1, 1);
  const spec = realisticGuildSpec(id, 0, fake.botUserId);
  const guild = fake.addGuild(spec);

  const types = (spec.channels ?? []).map((channel) => channel.type);
  expect(types).toHaveLength(REALISTIC_GUILD.channels);
  expect(types.filter((type) => type === ChannelType.GuildCategory)).toHaveLength(4);
  expect(types.filter((type) => type === ChannelType.GuildVoice)).toHaveLength(6);
  // With the fake's own four (@everyone, Staff, Admin, the bot's).
  expect((spec.roles ?? []).length + 4).toBe(REALISTIC_GUILD.roles);
  const overwrites = (spec.channels ?? []).flatMap((channel) => channel.permissionOverwrites ?? []);
  expect(overwrites.length).toBeGreaterThanOrEqual(2 * REALISTIC_GUILD.channels - 5);

  const post = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;
  const canPost = (name: string) => (fake.channelPermissions(guild.channels[name] ?? '') & post) === post;
  expect(['case-feed', 'modcalls', 'shift-log', 'sessions', 'general'].map(canPost)).toEqual([
    true,
    true,
    true,
    true,
    true,
  ]);
  expect(['staff-chat', 'admin', 'announcements'].map(canPost)).toEqual([false, false, false]);
});
