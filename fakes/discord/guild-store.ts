/**
 * The fake's guilds: their channels, roles and members, the GUILD_CREATE payloads that describe them and the
 * permissions that follow from them.
 */
import {
  ChannelType,
  Locale,
  type APIGuildMember,
  type APIRole,
  type APIUser,
  type GatewayGuildCreateDispatchData,
  type GatewayVoiceState,
  type GuildSystemChannelFlags,
} from 'discord.js';

import {
  makeGuildChannel,
  makeMember,
  makeRole,
  makeUser,
  serialiseOverwrites,
  type RawGuildChannel,
  type RawThreadChannel,
} from './api-objects.js';
import {
  computeBasePermissions,
  computeChannelPermissions,
  DEFAULT_BOT_PERMISSIONS,
  MANAGE_GUILD,
  MEMBER_PERMISSIONS,
  type PermissionOverwrite,
  type PermissionSubject,
} from './permissions.js';

/** A permission bit set: a bigint such as `PermissionFlagsBits.SendMessages`, or its decimal string. */
export type PermissionBits = bigint | string;

/** A channel overwrite as given to {@link GuildSpec}; missing `allow`/`deny` mean none. */
export interface OverwriteSpec {
  readonly id: string;
  /** 0 = role, 1 = member. */
  readonly type: 0 | 1;
  readonly allow?: PermissionBits;
  readonly deny?: PermissionBits;
}

/** A channel to create; see {@link GuildSpec}. */
export interface ChannelSpec {
  readonly id?: string;
  readonly name: string;
  /** Discord channel type: 0 text (default), 2 voice, 4 category, 5 announcement... */
  readonly type?: ChannelType;
  readonly parentId?: string;
  readonly topic?: string;
  readonly permissionOverwrites?: readonly OverwriteSpec[];
  /** Shorthand for a member overwrite that denies these permissions to the bot in this channel. */
  readonly denyBot?: PermissionBits;
}

/** An extra role to create; see {@link GuildSpec}. */
export interface RoleSpec {
  readonly id?: string;
  readonly name: string;
  readonly permissions?: PermissionBits;
  readonly color?: number;
  readonly mentionable?: boolean;
  /**
   * Its place in the role list (0 is @everyone; Staff is 1, Admin 2, the bot's role 3). Defaults to above every
   * role made before it, so above the bot's role: give 1 for a role the bot may hand out.
   */
  readonly position?: number;
}

/** A member in one of the guild's voice channels when the bot connects; see {@link GuildSpec}. */
export interface VoiceMemberSpec {
  readonly id?: string;
  readonly username: string;
  readonly roleIds?: readonly string[];
  /** Their voice channel: the id of a channel given in `channels`. */
  readonly channelId: string;
}

/** What {@link GuildStore.addGuild} creates. Every field is optional. */
export interface GuildSpec {
  readonly id?: string;
  readonly name?: string;
  /** Defaults to a single text channel named `general`. */
  readonly channels?: readonly ChannelSpec[];
  readonly roles?: readonly RoleSpec[];
  /** What the bot's managed role grants; defaults to View Channel, Send Messages, Embed Links, Read Message History. */
  readonly botPermissions?: PermissionBits;
  /**
   * What @everyone grants; defaults to nothing, so that `botPermissions` alone decides what the bot may do
   * (on real Discord @everyone usually grants a lot, which would hide a missing bot permission).
   */
  readonly everyonePermissions?: PermissionBits;
  /**
   * Members in voice channels. Without the presences intent Discord's GUILD_CREATE lists, besides the bot, only
   * the members in voice channels (with their voice states), so these are the members a client gets.
   */
  readonly membersInVoice?: readonly VoiceMemberSpec[];
}

/** The ids of a guild made by {@link GuildStore.addGuild}. */
export interface AddedGuild {
  readonly id: string;
  readonly name: string;
  /** Channel ids in the order given. */
  readonly channelIds: readonly string[];
  /** Channel ids by name (the last one wins on duplicates). */
  readonly channels: Readonly<Record<string, string>>;
  /** Extra role ids by name. */
  readonly roles: Readonly<Record<string, string>>;
  /** The @everyone role, whose id is the guild's. */
  readonly everyoneRoleId: string;
  /** The bot's managed role. */
  readonly botRoleId: string;
  /** Held by both test users: ordinary member permissions. */
  readonly staffRoleId: string;
  /** Held by the admin test user: Manage Server. */
  readonly adminRoleId: string;
  readonly ownerId: string;
}

/** The users every fake guild knows besides the bot. */
export interface TestUsers {
  /** Owns every guild; an owner has every permission, so tests act as `admin` or `member` instead. */
  readonly owner: APIUser;
  /** Has the Staff and Admin roles (Manage Server). */
  readonly admin: APIUser;
  /** Has the Staff role only. */
  readonly member: APIUser;
}

interface GuildRecord {
  readonly id: string;
  readonly name: string;
  readonly ownerId: string;
  readonly joinedAt: string;
  readonly roles: APIRole[];
  readonly channels: RawGuildChannel[];
  readonly overwrites: Map<string, PermissionOverwrite[]>;
  readonly members: Map<string, APIGuildMember>;
  readonly voiceStates: GatewayVoiceState[];
  readonly added: AddedGuild;
}

function toBits(value: PermissionBits | undefined, fallback: bigint): bigint {
  return value === undefined ? fallback : BigInt(value);
}

/** The fake's guild state. */
export class GuildStore {
  readonly #guilds = new Map<string, GuildRecord>();
  readonly #channelToGuild = new Map<string, string>();
  /** Thread id -> its parent channel's id. */
  readonly #threadParents = new Map<string, string>();

  constructor(
    private readonly nextId: () => string,
    private readonly bot: APIUser,
    private readonly users: TestUsers,
  ) {}

  /** Creates a guild with its channels, roles, the bot as a member and the two test users. */
  addGuild(spec: GuildSpec = {}): AddedGuild {
    const id = spec.id ?? this.nextId();
    if (this.#guilds.has(id)) throw new Error(`Guild ${id} already exists`);
    const name = spec.name ?? `Fake Guild ${this.#guilds.size + 1}`;

    const botRoleId = this.nextId();
    const staffRoleId = this.nextId();
    const adminRoleId = this.nextId();
    const botPermissions = toBits(spec.botPermissions, DEFAULT_BOT_PERMISSIONS);
    const roles: APIRole[] = [
      makeRole({ id, name: '@everyone', permissions: toBits(spec.everyonePermissions, 0n), position: 0 }),
      makeRole({ id: staffRoleId, name: 'Staff', permissions: MEMBER_PERMISSIONS, position: 1 }),
      makeRole({ id: adminRoleId, name: 'Admin', permissions: MEMBER_PERMISSIONS | MANAGE_GUILD, position: 2 }),
      makeRole({ id: botRoleId, name: this.bot.username, permissions: botPermissions, position: 3 }, this.bot.id),
    ];
    const extraRoles: Record<string, string> = {};
    for (const role of spec.roles ?? []) {
      const roleId = role.id ?? this.nextId();
      extraRoles[role.name] = roleId;
      roles.push(
        makeRole({
          id: roleId,
          name: role.name,
          permissions: toBits(role.permissions, 0n),
          position: role.position ?? roles.length,
          ...(role.color === undefined ? {} : { color: role.color }),
          ...(role.mentionable === undefined ? {} : { mentionable: role.mentionable }),
        }),
      );
    }

    const channels: RawGuildChannel[] = [];
    const overwrites = new Map<string, PermissionOverwrite[]>();
    const channelIds: string[] = [];
    const channelsByName: Record<string, string> = {};
    (spec.channels ?? [{ name: 'general' }]).forEach((channel, position) => {
      const channelId = channel.id ?? this.nextId();
      if (this.#channelToGuild.has(channelId)) throw new Error(`Channel ${channelId} already exists`);
      const channelOverwrites: PermissionOverwrite[] = (channel.permissionOverwrites ?? []).map((o) => ({
        id: o.id,
        type: o.type,
        allow: toBits(o.allow, 0n),
        deny: toBits(o.deny, 0n),
      }));
      if (channel.denyBot !== undefined) {
        channelOverwrites.push({ id: this.bot.id, type: 1, allow: 0n, deny: BigInt(channel.denyBot) });
      }
      overwrites.set(channelId, channelOverwrites);
      channels.push(
        makeGuildChannel({
          id: channelId,
          type: channel.type ?? ChannelType.GuildText,
          guildId: id,
          name: channel.name,
          position,
          parentId: channel.parentId ?? null,
          topic: channel.topic ?? null,
          overwrites: channelOverwrites,
        }),
      );
      channelIds.push(channelId);
      channelsByName[channel.name] = channelId;
      this.#channelToGuild.set(channelId, id);
    });

    const joinedAt = new Date().toISOString();
    const members = new Map<string, APIGuildMember>([
      [this.bot.id, makeMember(this.bot, [botRoleId], joinedAt)],
      [this.users.admin.id, makeMember(this.users.admin, [staffRoleId, adminRoleId], joinedAt)],
      [this.users.member.id, makeMember(this.users.member, [staffRoleId], joinedAt)],
    ]);
    const voiceStates: GatewayVoiceState[] = [];
    for (const inVoice of spec.membersInVoice ?? []) {
      if (!channelIds.includes(inVoice.channelId)) throw new Error(`No channel ${inVoice.channelId} in the guild`);
      const user = makeUser(inVoice.id ?? this.nextId(), inVoice.username);
      members.set(user.id, makeMember(user, inVoice.roleIds ?? [], joinedAt));
      voiceStates.push(makeVoiceState(user.id, inVoice.channelId));
    }

    const added: AddedGuild = {
      id,
      name,
      channelIds,
      channels: channelsByName,
      roles: extraRoles,
      everyoneRoleId: id,
      botRoleId,
      staffRoleId,
      adminRoleId,
      ownerId: this.users.owner.id,
    };
    const ownerId = this.users.owner.id;
    this.#guilds.set(id, { id, name, ownerId, joinedAt, roles, channels, overwrites, members, voiceStates, added });
    return added;
  }

  /**
   * Sets a channel's overwrite for one role or member (replacing that one's, if any), as a server admin editing
   * the channel would; returns the channel as it is now, for CHANNEL_UPDATE.
   */
  setOverwrite(channelId: string, spec: OverwriteSpec): RawGuildChannel {
    const guildId = this.#channelToGuild.get(channelId);
    const guild = guildId === undefined ? undefined : this.#guilds.get(guildId);
    const index = guild?.channels.findIndex((channel) => channel.id === channelId) ?? -1;
    const current = guild?.channels[index];
    if (!guild || !current) throw new Error(`Unknown channel ${channelId}`);
    const overwrite = { id: spec.id, type: spec.type, allow: toBits(spec.allow, 0n), deny: toBits(spec.deny, 0n) };
    const overwrites = [...(guild.overwrites.get(channelId) ?? []).filter((o) => o.id !== spec.id), overwrite];
    guild.overwrites.set(channelId, overwrites);
    const updated = { ...current, permission_overwrites: serialiseOverwrites(overwrites) };
    guild.channels[index] = updated;
    return updated;
  }

  /** Forgets a guild and its channels (the bot was removed from it). */
  removeGuild(guildId: string): void {
    const guild = this.#require(guildId);
    for (const channel of guild.channels) {
      this.#channelToGuild.delete(channel.id);
      this.#threadParents.delete(channel.id);
    }
    this.#guilds.delete(guildId);
  }

  /** Ids of every guild, in creation order. */
  guildIds(): string[] {
    return [...this.#guilds.keys()];
  }

  /** The ids of a guild, or undefined. */
  guild(guildId: string): AddedGuild | undefined {
    return this.#guilds.get(guildId)?.added;
  }

  /** A channel's raw object, or undefined when no guild has it. */
  channel(channelId: string): RawGuildChannel | undefined {
    const guildId = this.#channelToGuild.get(channelId);
    return guildId === undefined ? undefined : this.#guilds.get(guildId)?.channels.find((c) => c.id === channelId);
  }

  /** A role's raw object, or undefined. */
  role(guildId: string, roleId: string): APIRole | undefined {
    return this.#guilds.get(guildId)?.roles.find((role) => role.id === roleId);
  }

  /**
   * Changes a role as an admin would in Server Settings → Roles (its permissions, its place); the role as it is
   * now.
   */
  editRole(guildId: string, roleId: string, changes: { permissions?: PermissionBits; position?: number }): APIRole {
    const guild = this.#require(guildId);
    const index = guild.roles.findIndex((role) => role.id === roleId);
    const role = guild.roles[index];
    if (!role) throw new Error(`Unknown role ${roleId}`);
    const edited: APIRole = {
      ...role,
      ...(changes.permissions === undefined ? {} : { permissions: BigInt(changes.permissions).toString() }),
      ...(changes.position === undefined ? {} : { position: changes.position }),
    };
    guild.roles[index] = edited;
    return edited;
  }

  /** A guild member's raw object, or undefined when the user is not in the guild. */
  member(guildId: string, userId: string): APIGuildMember | undefined {
    return this.#guilds.get(guildId)?.members.get(userId);
  }

  /** Adds (or replaces) a member, e.g. another human for interaction tests. */
  addMember(guildId: string, user: APIUser, roleIds: readonly string[]): APIGuildMember {
    const guild = this.#require(guildId);
    const member = makeMember(user, roleIds, new Date().toISOString());
    guild.members.set(user.id, member);
    return member;
  }

  /** Adds a role to a member (nothing when they hold it already). */
  grantRole(guildId: string, userId: string, roleId: string): void {
    const guild = this.#require(guildId);
    const member = guild.members.get(userId);
    if (!member) throw new Error(`${userId} is not a member of guild ${guildId}`);
    if (!guild.roles.some((role) => role.id === roleId)) throw new Error(`Unknown role ${roleId}`);
    if (!member.roles.includes(roleId)) guild.members.set(userId, { ...member, roles: [...member.roles, roleId] });
  }

  /** Takes a role from a member (nothing when they do not hold it). */
  removeRole(guildId: string, userId: string, roleId: string): void {
    const guild = this.#require(guildId);
    const member = guild.members.get(userId);
    if (!member) throw new Error(`${userId} is not a member of guild ${guildId}`);
    guild.members.set(userId, { ...member, roles: member.roles.filter((held) => held !== roleId) });
  }

  /**
   * A member's highest role, as Discord compares roles ({@link compareRoles}); undefined for a member with no
   * role but @everyone.
   */
  highestRole(guildId: string, userId: string): APIRole | undefined {
    const guild = this.#require(guildId);
    const held = new Set(guild.members.get(userId)?.roles ?? []);
    return guild.roles
      .filter((role) => held.has(role.id))
      .sort(compareRoles)
      .at(-1);
  }

  /**
   * A user's permissions in a channel, after roles, overwrites and Discord's implicit rules. A thread has no
   * overwrites of its own: Discord computes its permissions from its parent channel's.
   */
  channelPermissions(channelId: string, userId: string): bigint {
    const guildId = this.#channelToGuild.get(channelId);
    if (guildId === undefined) return 0n;
    const parentId = this.#threadParents.get(channelId);
    return computeChannelPermissions(this.#subject(this.#require(guildId), userId, parentId ?? channelId));
  }

  /** The thread of a channel's message, if one was started from it (its id is the message's). */
  thread(threadId: string): RawThreadChannel | undefined {
    return this.#threadParents.has(threadId) ? (this.channel(threadId) as RawThreadChannel | undefined) : undefined;
  }

  /** Adds a thread to its parent's guild: a channel messages can be posted in. */
  addThread(thread: RawThreadChannel): void {
    const guild = this.#require(thread.guild_id);
    guild.channels.push(thread as unknown as RawGuildChannel);
    this.#channelToGuild.set(thread.id, guild.id);
    this.#threadParents.set(thread.id, thread.parent_id);
  }

  /** A user's guild-wide permissions (roles only). */
  guildPermissions(guildId: string, userId: string): bigint {
    return computeBasePermissions(this.#subject(this.#require(guildId), userId, undefined));
  }

  /**
   * The GUILD_CREATE payload: without the presences intent Discord lists as members only the bot and those in
   * voice channels (with their voice states); channels, roles and the rest are complete.
   */
  guildCreatePayload(guildId: string): GatewayGuildCreateDispatchData {
    const guild = this.#require(guildId);
    const botMember = guild.members.get(this.bot.id);
    const inVoice = guild.voiceStates.flatMap((state) => guild.members.get(state.user_id) ?? []);
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      splash: null,
      discovery_splash: null,
      banner: null,
      description: null,
      owner_id: guild.ownerId,
      region: 'deprecated',
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      roles: guild.roles,
      emojis: [],
      stickers: [],
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: null,
      system_channel_flags: 0 as GuildSystemChannelFlags,
      rules_channel_id: null,
      public_updates_channel_id: null,
      safety_alerts_channel_id: null,
      vanity_url_code: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      premium_progress_bar_enabled: false,
      preferred_locale: Locale.EnglishUS,
      nsfw_level: 0,
      max_members: 500_000,
      max_video_channel_users: 25,
      max_stage_video_channel_users: 50,
      hub_type: null,
      incidents_data: null,
      joined_at: guild.joinedAt,
      large: false,
      unavailable: false,
      member_count: guild.members.size,
      voice_states: guild.voiceStates,
      members: [...(botMember ? [botMember] : []), ...inVoice],
      // One raw shape serves every channel type here; discord.js picks the class from `type`.
      channels: guild.channels.filter(
        (channel) => !this.#threadParents.has(channel.id),
      ) as GatewayGuildCreateDispatchData['channels'],
      threads: guild.channels.filter((channel) =>
        this.#threadParents.has(channel.id),
      ) as unknown as GatewayGuildCreateDispatchData['threads'],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  #subject(guild: GuildRecord, userId: string, channelId: string | undefined): PermissionSubject {
    return {
      guildId: guild.id,
      ownerId: guild.ownerId,
      userId,
      roleIds: guild.members.get(userId)?.roles ?? [],
      rolePermissions: new Map(guild.roles.map((role) => [role.id, BigInt(role.permissions)])),
      overwrites: channelId === undefined ? [] : (guild.overwrites.get(channelId) ?? []),
    };
  }

  #require(guildId: string): GuildRecord {
    const guild = this.#guilds.get(guildId);
    if (!guild) throw new Error(`Unknown guild ${guildId}`);
    return guild;
  }
}

/** A member's voice state as GUILD_CREATE lists it (no guild id: the guild is the payload's). */
function makeVoiceState(userId: string, channelId: string): GatewayVoiceState {
  return {
    channel_id: channelId,
    user_id: userId,
    session_id: `voice-${userId}`,
    deaf: false,
    mute: false,
    self_deaf: false,
    self_mute: false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

/** Discord's role order: by position, and on a tie the role with the higher id (the newer) below. */
export function compareRoles(a: APIRole, b: APIRole): number {
  if (a.position !== b.position) return a.position - b.position;
  return BigInt(a.id) < BigInt(b.id) ? 1 : BigInt(a.id) > BigInt(b.id) ? -1 : 0;
}
