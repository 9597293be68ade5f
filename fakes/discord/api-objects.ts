/**
 * Builders for the JSON objects Discord sends (users, roles, channels, members, messages), complete enough that
 * discord.js parses them like the real thing. Pure functions.
 */
import {
  ChannelType,
  MessageType,
  type APIAttachment,
  type APIEmbed,
  type APIGuildMember,
  type APIMessage,
  type APIOverwrite,
  type APIRole,
  type APIUser,
  type GuildMemberFlags,
  type RoleFlags,
  type UserFlags,
} from 'discord.js';

import type { PermissionOverwrite } from './permissions.js';
import { snowflakeTime } from './snowflake.js';

/** A user as Discord sends it. */
export function makeUser(id: string, username: string, bot = false): APIUser {
  return {
    id,
    username,
    discriminator: '0',
    global_name: bot ? null : username,
    avatar: null,
    bot,
    system: false,
    flags: 0 as UserFlags,
    public_flags: 0 as UserFlags,
  };
}

/** A role; `permissions` is serialised as Discord does, as a decimal string. */
export function makeRole(
  fields: { id: string; name: string; permissions: bigint; position: number; color?: number; mentionable?: boolean },
  botId?: string,
): APIRole {
  const color = fields.color ?? 0;
  return {
    id: fields.id,
    name: fields.name,
    color,
    colors: { primary_color: color, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: fields.position,
    permissions: fields.permissions.toString(),
    managed: botId !== undefined,
    mentionable: fields.mentionable ?? false,
    flags: 0 as RoleFlags,
    ...(botId === undefined ? {} : { tags: { bot_id: botId } }),
  };
}

/** Overwrites as Discord serialises them (bit sets as strings). */
export function serialiseOverwrites(overwrites: readonly PermissionOverwrite[]): APIOverwrite[] {
  return overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() }));
}

/** The raw channel object of a guild channel (text, announcement, voice, category...). */
export interface RawGuildChannel {
  id: string;
  type: ChannelType;
  guild_id: string;
  name: string;
  position: number;
  parent_id: string | null;
  permission_overwrites: APIOverwrite[];
  nsfw: boolean;
  topic: string | null;
  last_message_id: string | null;
  rate_limit_per_user: number;
  flags: number;
}

/** A public thread started from a message, as `POST /channels/{id}/messages/{id}/threads` answers it. */
export interface RawThreadChannel {
  id: string;
  type: ChannelType.PublicThread;
  guild_id: string;
  parent_id: string;
  owner_id: string;
  name: string;
  last_message_id: string | null;
  rate_limit_per_user: number;
  message_count: number;
  member_count: number;
  flags: number;
  thread_metadata: {
    archived: boolean;
    auto_archive_duration: number;
    archive_timestamp: string;
    locked: boolean;
    create_timestamp: string;
  };
}

/** A thread started from message `messageId` (whose id it takes, as on Discord) of `parentId`. */
export function makeThread(fields: {
  messageId: string;
  parentId: string;
  guildId: string;
  ownerId: string;
  name: string;
  autoArchiveMinutes: number;
}): RawThreadChannel {
  const now = new Date().toISOString();
  return {
    id: fields.messageId,
    type: ChannelType.PublicThread,
    guild_id: fields.guildId,
    parent_id: fields.parentId,
    owner_id: fields.ownerId,
    name: fields.name,
    last_message_id: null,
    rate_limit_per_user: 0,
    message_count: 0,
    member_count: 1,
    flags: 0,
    thread_metadata: {
      archived: false,
      auto_archive_duration: fields.autoArchiveMinutes,
      archive_timestamp: now,
      locked: false,
      create_timestamp: now,
    },
  };
}

/** A guild channel as it appears in GUILD_CREATE and in `GET /channels/{id}`. */
export function makeGuildChannel(fields: {
  id: string;
  type: ChannelType;
  guildId: string;
  name: string;
  position: number;
  parentId: string | null;
  topic: string | null;
  overwrites: readonly PermissionOverwrite[];
}): RawGuildChannel {
  return {
    id: fields.id,
    type: fields.type,
    guild_id: fields.guildId,
    name: fields.name,
    position: fields.position,
    parent_id: fields.parentId,
    permission_overwrites: serialiseOverwrites(fields.overwrites),
    nsfw: false,
    topic: fields.type === ChannelType.GuildVoice || fields.type === ChannelType.GuildCategory ? null : fields.topic,
    last_message_id: null,
    rate_limit_per_user: 0,
    flags: 0,
  };
}

/** A guild member; `joinedAt` is an ISO timestamp. */
export function makeMember(user: APIUser, roleIds: readonly string[], joinedAt: string): APIGuildMember {
  return {
    user,
    nick: null,
    avatar: null,
    banner: null,
    roles: [...roleIds],
    joined_at: joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    pending: false,
    communication_disabled_until: null,
  };
}

/** What a message is made of, once Discord has accepted a create or edit. */
export interface MessageFields {
  id: string;
  channelId: string;
  author: APIUser;
  content: string;
  embeds: APIEmbed[];
  components: unknown[];
  flags: number;
  nonce?: string | number;
  tts: boolean;
  type?: MessageType;
  editedAt?: string | null;
  webhookId?: string;
  applicationId?: string;
  mentionRoles?: string[];
  attachments?: APIAttachment[];
  /** The message a reply answers, as Discord echoes it (the reply's type is then Reply). */
  messageReference?: { message_id: string; channel_id: string; guild_id?: string };
}

/** The message object Discord answers a create with (and sends in MESSAGE_CREATE). */
export function makeMessage(fields: MessageFields): APIMessage {
  const message: APIMessage = {
    id: fields.id,
    channel_id: fields.channelId,
    author: fields.author,
    content: fields.content,
    timestamp: new Date(snowflakeTime(fields.id)).toISOString(),
    edited_timestamp: fields.editedAt ?? null,
    tts: fields.tts,
    mention_everyone: false,
    mentions: [],
    mention_roles: fields.mentionRoles ?? [],
    attachments: fields.attachments ?? [],
    // Discord fills in `type: "rich"` for embeds sent by bots.
    embeds: fields.embeds.map((embed) => ({ type: 'rich', ...embed }) as APIEmbed),
    // The schema validated these on the way in; Discord echoes them back.
    components: fields.components as NonNullable<APIMessage['components']>,
    pinned: false,
    type: fields.type ?? MessageType.Default,
    flags: fields.flags,
  };
  if (fields.nonce !== undefined) message.nonce = fields.nonce;
  if (fields.webhookId !== undefined) message.webhook_id = fields.webhookId;
  if (fields.applicationId !== undefined) message.application_id = fields.applicationId;
  if (fields.messageReference !== undefined) message.message_reference = fields.messageReference;
  return message;
}
