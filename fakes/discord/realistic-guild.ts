import { ChannelType, PermissionFlagsBits as P } from 'discord.js';

import type { ChannelSpec, GuildSpec, OverwriteSpec, RoleSpec } from './guild-store.js';
import { DISCORD_EPOCH } from './snowflake.js';

/**
 * A guild as a community server running the bot looks: 30 channels (4 categories, 18 text, 2 announcement, 6
 * voice), 25 roles (the fake's @everyone, Staff, Admin and the bot's, and 21 more: moderators, game ranks,
 * pings), permission overwrites on most channels (about 2 a channel: staff-only categories, read-only
 * announcements, muted roles, one member's), and 3 members in voice channels, whom Discord lists in GUILD_CREATE
 * even with the Guilds intent alone (for tests and benchmarks of many guilds, bench/guilds.ts). The shape is the same
 * for every guild; names and ids differ.
 */
export const REALISTIC_GUILD = {
  channels: 30,
  roles: 25,
  membersInVoice: 3,
} as const;

const CATEGORIES = ['Information', 'Community', 'Staff', 'Voice'] as const;
const TEXT_CHANNELS = [
  'rules',
  'general',
  'off-topic',
  'media',
  'suggestions',
  'support',
  'bot-commands',
  'game-chat',
  'looking-for-group',
  'trading',
  'clips',
  'staff-chat',
  'mod-log',
  'case-feed',
  'modcalls',
  'shift-log',
  'sessions',
  'admin',
] as const;
const ANNOUNCEMENT_CHANNELS = ['announcements', 'server-status'] as const;
const VOICE_CHANNELS = ['Lounge', 'Game 1', 'Game 2', 'Game 3', 'Staff Voice', 'AFK'] as const;
/** Channels under the Staff category: @everyone denied, the staff roles allowed. */
/** The staff channels the bot's feeds post to. */
const FEED_CHANNELS = new Set<string>(['case-feed', 'modcalls', 'shift-log', 'sessions']);
const STAFF_ONLY = new Set<string>([
  'staff-chat',
  'mod-log',
  'case-feed',
  'modcalls',
  'shift-log',
  'sessions',
  'admin',
]);

const EXTRA_ROLES: readonly Omit<RoleSpec, 'position'>[] = [
  { name: 'Head Moderator', permissions: P.KickMembers | P.BanMembers | P.ManageMessages | P.ModerateMembers },
  { name: 'Moderator', permissions: P.KickMembers | P.ManageMessages | P.ModerateMembers, mentionable: true },
  { name: 'Trial Moderator', permissions: P.ManageMessages, mentionable: true },
  { name: 'Game Admin', permissions: P.ManageEvents },
  { name: 'Session Host', permissions: 0n, mentionable: true },
  { name: 'On Duty', permissions: 0n, mentionable: true },
  { name: 'Muted', permissions: 0n },
  { name: 'Verified', permissions: P.ViewChannel | P.SendMessages },
  { name: 'Booster', permissions: P.AttachFiles | P.EmbedLinks },
  { name: 'Veteran', permissions: 0n },
  { name: 'Regular', permissions: 0n },
  { name: 'Newcomer', permissions: 0n },
  { name: 'Rank S', permissions: 0n },
  { name: 'Rank A', permissions: 0n },
  { name: 'Rank B', permissions: 0n },
  { name: 'Rank C', permissions: 0n },
  { name: 'Events Ping', permissions: 0n, mentionable: true },
  { name: 'Sessions Ping', permissions: 0n, mentionable: true },
  { name: 'Updates Ping', permissions: 0n, mentionable: true },
  { name: 'EU', permissions: 0n },
  { name: 'NA', permissions: 0n },
];

/**
 * The spec of realistic guild `index` with id `id` (see {@link guildIdsOverShards}). Role ids are given here
 * (from the guild's id) so the channels' overwrites can name them; with `botUserId`, the staff channels the feeds
 * post to let the bot in (a member overwrite: the Staff category denies @everyone).
 */
export function realisticGuildSpec(id: string, index: number, botUserId?: string): GuildSpec {
  const base = BigInt(id);
  let next = 0n;
  // Ids of the guild's own roles and channels: the guild's id plus a counter, unique as guild ids are spaced.
  const nextId = () => (base + (next += 1n)).toString();
  const roles: RoleSpec[] = EXTRA_ROLES.map((role, i) => ({
    ...role,
    id: nextId(),
    // Below the bot's role (3) for the pings and ranks, above it for the staff ones: as servers arrange them.
    position: i < 4 ? 4 + i : 1,
    color: (index * 31 + i * 0x10_10_10) & 0xff_ff_ff,
  }));
  const roleId = (name: string) => roles.find((role) => role.name === name)?.id ?? '';
  const staff = [roleId('Head Moderator'), roleId('Moderator'), roleId('Trial Moderator')];
  const everyone = id;

  const categoryIds = CATEGORIES.map(() => nextId());
  const channels: ChannelSpec[] = CATEGORIES.map((name, i) => ({
    id: categoryIds[i] as string,
    name,
    type: ChannelType.GuildCategory,
    permissionOverwrites:
      name === 'Staff'
        ? [
            { id: everyone, type: 0, deny: P.ViewChannel },
            ...staff.map((role): OverwriteSpec => ({ id: role, type: 0, allow: P.ViewChannel | P.SendMessages })),
          ]
        : [{ id: roleId('Muted'), type: 0, deny: P.SendMessages | P.AddReactions }],
  }));
  const muted: OverwriteSpec = { id: roleId('Muted'), type: 0, deny: P.SendMessages | P.AddReactions };
  for (const name of TEXT_CHANNELS) {
    const overwrites: OverwriteSpec[] = STAFF_ONLY.has(name)
      ? [
          { id: everyone, type: 0, deny: P.ViewChannel },
          ...staff.map((role): OverwriteSpec => ({ id: role, type: 0, allow: P.ViewChannel | P.SendMessages })),
        ]
      : name === 'rules'
        ? [{ id: everyone, type: 0, deny: P.SendMessages, allow: P.ViewChannel | P.ReadMessageHistory }]
        : name === 'trading'
          ? [muted, { id: roleId('Verified'), type: 0, allow: P.SendMessages | P.AttachFiles }]
          : [muted];
    // One member's own overwrite, as an admin gives a member a channel of their own.
    if (name === 'clips') overwrites.push({ id: nextId(), type: 1, allow: P.ManageMessages });
    // The bot let into the staff channels it posts to, as an admin does when setting it up.
    if (botUserId !== undefined && FEED_CHANNELS.has(name))
      overwrites.push({ id: botUserId, type: 1, allow: P.ViewChannel });
    channels.push({
      id: nextId(),
      name,
      type: ChannelType.GuildText,
      parentId: categoryIds[STAFF_ONLY.has(name) ? 2 : name === 'rules' ? 0 : 1] as string,
      topic: `The ${name} channel of guild ${index}`,
      permissionOverwrites: overwrites,
    });
  }
  for (const name of ANNOUNCEMENT_CHANNELS) {
    channels.push({
      id: nextId(),
      name,
      type: ChannelType.GuildAnnouncement,
      parentId: categoryIds[0] as string,
      topic: `News of guild ${index}`,
      permissionOverwrites: [
        { id: everyone, type: 0, deny: P.SendMessages },
        { id: roleId('Game Admin'), type: 0, allow: P.SendMessages | P.MentionEveryone },
      ],
    });
  }
  const voiceIds: string[] = [];
  for (const name of VOICE_CHANNELS) {
    voiceIds.push(nextId());
    channels.push({
      id: voiceIds.at(-1) as string,
      name,
      type: ChannelType.GuildVoice,
      parentId: categoryIds[3] as string,
      permissionOverwrites:
        name === 'Staff Voice'
          ? [
              { id: everyone, type: 0, deny: P.Connect },
              { id: roleId('Moderator'), type: 0, allow: P.Connect | P.Speak },
            ]
          : [{ id: roleId('Muted'), type: 0, deny: P.Speak }],
    });
  }
  const regulars = [roleId('Verified'), roleId('Regular')];
  const membersInVoice = [
    { id: nextId(), username: `talker-${index}`, roleIds: regulars, channelId: voiceIds[0] as string },
    {
      id: nextId(),
      username: `player-${index}`,
      roleIds: [...regulars, roleId('Rank A')],
      channelId: voiceIds[1] as string,
    },
    { id: nextId(), username: `mod-${index}`, roleIds: [roleId('Moderator')], channelId: voiceIds[4] as string },
  ];
  return { id, name: `Community ${index}`, roles, channels, membersInVoice };
}

/**
 * `count` guild ids spread evenly over `shards` shards (Discord's `(guild_id >> 22) % shards`: guild i on shard
 * i % shards), each a millisecond apart, older than anything the fake makes, and spaced 2^22 apart so a guild's
 * own role and channel ids (its id plus a small counter) never meet another guild's.
 */
export function guildIdsOverShards(count: number, shards: number): string[] {
  // About a year back, on shard 0: the fake's own ids are of now.
  let ms = BigInt(Date.now() - 365 * 24 * 3_600_000) - DISCORD_EPOCH;
  ms -= ms % BigInt(shards);
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) ids.push((((ms + BigInt(i)) << 22n) | (3n << 17n)).toString());
  return ids;
}
