/**
 * Completes an interaction draft into the INTERACTION_CREATE payload Discord would send: ids and token,
 * guild, channel, member with computed permissions, app permissions, and resolved channels/roles/users.
 */
import { randomBytes } from 'node:crypto';
import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  InteractionContextType,
  InteractionType,
  Locale,
  type APIInteraction,
  type APIUser,
} from 'discord.js';

import type { AttachmentStore } from './attachment-store.js';
import type { CommandStore } from './command-store.js';
import type { GuildStore, TestUsers } from './guild-store.js';
import type { InteractionDraft } from './interaction-builders.js';

/** The fake's state a completion reads. */
export interface CompletionContext {
  readonly guilds: GuildStore;
  readonly commands: CommandStore;
  readonly attachments: AttachmentStore;
  readonly users: TestUsers;
  readonly bot: APIUser;
  readonly applicationId: string;
  readonly nextId: () => string;
}

interface Resolved {
  channels?: Record<string, unknown>;
  roles?: Record<string, unknown>;
  users?: Record<string, unknown>;
  members?: Record<string, unknown>;
  attachments?: Record<string, unknown>;
}

/** Discord's upload limit for a guild without boosts, which interactions report. */
const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

function firstGuild(ctx: CompletionContext, guildId: string | undefined): string {
  const id = guildId ?? ctx.guilds.guildIds()[0];
  if (id === undefined || !ctx.guilds.guild(id)) {
    throw new Error('dispatchInteraction needs a guild: call addGuild() first or pass guildId');
  }
  return id;
}

/** Fills `resolved` for channel, role and user options, as Discord does, with the invoker's permissions. */
function resolveOptions(
  ctx: CompletionContext,
  guildId: string,
  invokerId: string,
  options: unknown,
  resolved: Resolved,
): void {
  if (!Array.isArray(options)) return;
  for (const option of options as { type?: number; value?: unknown; options?: unknown }[]) {
    resolveOptions(ctx, guildId, invokerId, option.options, resolved);
    // Options that resolve to objects carry their id as a string (a snowflake).
    if (typeof option.value !== 'string') continue;
    const id = option.value;
    switch (option.type) {
      case ApplicationCommandOptionType.Channel: {
        const channel = ctx.guilds.channel(id);
        if (!channel) throw new Error(`Channel option refers to unknown channel ${id}`);
        resolved.channels ??= {};
        resolved.channels[id] = {
          id: channel.id,
          name: channel.name,
          type: channel.type,
          parent_id: channel.parent_id,
          permissions: ctx.guilds.channelPermissions(id, invokerId).toString(),
        };
        break;
      }
      case ApplicationCommandOptionType.Role: {
        const role = ctx.guilds.role(guildId, id);
        if (!role) throw new Error(`Role option refers to unknown role ${id} in guild ${guildId}`);
        resolved.roles ??= {};
        resolved.roles[id] = role;
        break;
      }
      case ApplicationCommandOptionType.User:
      case ApplicationCommandOptionType.Mentionable: {
        const role = ctx.guilds.role(guildId, id);
        if (role) {
          resolved.roles ??= {};
          resolved.roles[id] = role;
          break;
        }
        const member = ctx.guilds.member(guildId, id);
        if (!member?.user) throw new Error(`User option refers to ${id}, who is not a member of guild ${guildId}`);
        const { user, ...rest } = member;
        resolved.users ??= {};
        resolved.members ??= {};
        resolved.users[id] = user;
        resolved.members[id] = { ...rest, permissions: ctx.guilds.guildPermissions(guildId, id).toString() };
        break;
      }
      case ApplicationCommandOptionType.Attachment: {
        const attachment = ctx.attachments.get(id);
        if (!attachment) throw new Error(`Attachment option refers to unknown attachment ${id}`);
        resolved.attachments ??= {};
        resolved.attachments[id] = attachment.api;
        break;
      }
      default:
        break;
    }
  }
}

/** Builds the full INTERACTION_CREATE payload for a draft. */
export function completeInteraction(ctx: CompletionContext, draft: InteractionDraft): APIInteraction {
  const guildId = firstGuild(ctx, draft.guildId);
  const guild = ctx.guilds.guild(guildId);
  const channelId = draft.channelId ?? guild?.channelIds[0];
  const channel = channelId === undefined ? undefined : ctx.guilds.channel(channelId);
  if (!channel || channelId === undefined) throw new Error(`dispatchInteraction: unknown channel ${String(channelId)}`);

  const userId =
    typeof draft.as === 'object' ? draft.as.userId : draft.as === 'member' ? ctx.users.member.id : ctx.users.admin.id;
  const member = ctx.guilds.member(guildId, userId);
  const user = member?.user;
  if (!member || !user) throw new Error(`${userId} is not a member of guild ${guildId}`);
  const memberPermissions = ctx.guilds.channelPermissions(channelId, user.id).toString();

  const data: Record<string, unknown> = { ...draft.data };
  const isCommand =
    draft.type === InteractionType.ApplicationCommand || draft.type === InteractionType.ApplicationCommandAutocomplete;
  if (isCommand) {
    const command = ctx.commands.find(String(data['name']), guildId);
    data['id'] ??= command?.id ?? ctx.nextId();
    if (command?.guild_id !== undefined) data['guild_id'] ??= command.guild_id;
    if (draft.type === InteractionType.ApplicationCommand) {
      const resolved: Resolved = {};
      resolveOptions(ctx, guildId, user.id, data['options'], resolved);
      if (Object.keys(resolved).length > 0) data['resolved'] = resolved;
    }
  }

  const locale = draft.locale ?? Locale.EnglishUS;
  return {
    id: ctx.nextId(),
    application_id: ctx.applicationId,
    type: draft.type,
    data,
    guild_id: guildId,
    guild: { id: guildId, locale: Locale.EnglishUS, features: [] },
    channel_id: channelId,
    channel: { ...channel, permissions: memberPermissions },
    member: { ...member, permissions: memberPermissions },
    token: `fake-interaction-token.${randomBytes(24).toString('base64url')}`,
    version: 1,
    app_permissions: ctx.guilds.channelPermissions(channelId, ctx.bot.id).toString(),
    locale,
    guild_locale: Locale.EnglishUS,
    entitlements: [],
    authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: guildId },
    context: InteractionContextType.Guild,
    attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
    ...draft.overrides,
  } as unknown as APIInteraction;
}
