/**
 * Channel routes: creating messages (with Discord's permission rules) and reading channels.
 */
import { ChannelType, GatewayDispatchEvents, GatewayIntentBits, PermissionFlagsBits } from 'discord.js';

import { ApiErrors, DiscordApiFault } from '../api-errors.js';
import type { MessageBody } from '../message-store.js';
import { hasPermissions } from '../permissions.js';
import type { RouteDeps } from './route-deps.js';
import type { Route } from './router.js';
import { attachmentsOf } from './uploaded-files.js';

/** What a bot may upload to a channel of a server without boosts: 10 MiB a file. */
const CHANNEL_UPLOAD_LIMIT = 10 * 1024 * 1024;

/** Channel types a message can be posted in. */
const TEXT_CHANNEL_TYPES = new Set<ChannelType>([
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildVoice,
  ChannelType.GuildStageVoice,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
  ChannelType.AnnouncementThread,
]);

/** `POST /channels/:channelId/messages`, `PATCH /channels/:channelId/messages/:messageId` and `GET /channels/:channelId`. */
export function channelRoutes(deps: RouteDeps): Route[] {
  return [
    {
      method: 'POST',
      path: '/channels/:channelId/messages',
      auth: true,
      channelParam: 'channelId',
      rateLimited: true,
      uploads: true,
      handle: ({ params, body, files }) => {
        const channelId = params['channelId'] ?? '';
        const channel = deps.guilds.channel(channelId);
        if (!channel) throw ApiErrors.unknownChannel();
        const permissions = deps.guilds.channelPermissions(channelId, deps.bot.id);
        if (!hasPermissions(permissions, PermissionFlagsBits.ViewChannel)) throw ApiErrors.missingAccess();
        if (!TEXT_CHANNEL_TYPES.has(channel.type)) {
          throw new DiscordApiFault(400, 50008, 'Cannot send messages in a non-text channel');
        }
        // In a thread Discord asks for Send Messages in Threads (of its parent) instead of Send Messages.
        const sending = deps.guilds.thread(channelId)
          ? PermissionFlagsBits.SendMessagesInThreads
          : PermissionFlagsBits.SendMessages;
        if (!hasPermissions(permissions, sending)) throw ApiErrors.missingPermissions();

        const message = body as MessageBody & Record<string, unknown>;
        // A reply reads the message it answers: Discord refuses it without Read Message History.
        if (message['message_reference'] && !hasPermissions(permissions, PermissionFlagsBits.ReadMessageHistory)) {
          throw ApiErrors.cannotReplyWithoutHistory();
        }
        // Without Embed Links Discord accepts the message but drops its embeds, which may leave it empty.
        const dropEmbeds = !hasPermissions(permissions, PermissionFlagsBits.EmbedLinks);
        if (dropEmbeds && !message.content && !(message.components?.length ?? 0) && (message.embeds?.length ?? 0) > 0) {
          throw ApiErrors.emptyMessage();
        }
        if (files.length > 0 && !hasPermissions(permissions, PermissionFlagsBits.AttachFiles)) {
          throw ApiErrors.missingPermissions();
        }
        const attachments = attachmentsOf(deps, message, files, CHANNEL_UPLOAD_LIMIT);
        const { message: stored, duplicate } = deps.messages.create(message, {
          channelId,
          guildId: channel.guild_id,
          author: deps.bot,
          source: 'channel',
          dropEmbeds,
          ...(attachments === undefined ? {} : { attachments }),
        });
        if (!duplicate) {
          deps.gateway.dispatch(
            GatewayDispatchEvents.MessageCreate,
            { ...stored.api, guild_id: channel.guild_id },
            GatewayIntentBits.GuildMessages,
          );
          deps.onChange();
        }
        return { status: 200, body: stored.api };
      },
    },
    {
      method: 'PATCH',
      path: '/channels/:channelId/messages/:messageId',
      auth: true,
      channelParam: 'channelId',
      handle: ({ params, body }) => {
        const channelId = params['channelId'] ?? '';
        const channel = deps.guilds.channel(channelId);
        if (!channel) throw ApiErrors.unknownChannel();
        const permissions = deps.guilds.channelPermissions(channelId, deps.bot.id);
        if (!hasPermissions(permissions, PermissionFlagsBits.ViewChannel)) throw ApiErrors.missingAccess();
        const current = deps.messages.get(params['messageId'] ?? '');
        if (!current || current.channel_id !== channelId || current.ephemeral) throw ApiErrors.unknownMessage();
        // Only the author edits a message's content (Discord answers 50005 "another user's message").
        if (current.api.author.id !== deps.bot.id) {
          throw new DiscordApiFault(403, 50005, 'Cannot edit a message authored by another user');
        }
        const edited = deps.messages.edit(current.id, body as MessageBody);
        if (!edited) throw ApiErrors.unknownMessage();
        deps.gateway.dispatch(
          GatewayDispatchEvents.MessageUpdate,
          { ...edited.api, guild_id: channel.guild_id },
          GatewayIntentBits.GuildMessages,
        );
        deps.onChange();
        return { status: 200, body: edited.api };
      },
    },
    {
      // Newest first, as Discord answers: with `after`, the `limit` messages just after it; with `before`, the
      // `limit` just before it; with neither, the channel's newest. A fetched message carries no nonce (only the
      // answer to its creation and the gateway's MESSAGE_CREATE do), so a bot can find its own post only by what
      // the message shows.
      method: 'GET',
      path: '/channels/:channelId/messages',
      auth: true,
      channelParam: 'channelId',
      handle: ({ params, query }) => {
        const channelId = params['channelId'] ?? '';
        if (!deps.guilds.channel(channelId)) throw ApiErrors.unknownChannel();
        const permissions = deps.guilds.channelPermissions(channelId, deps.bot.id);
        if (!hasPermissions(permissions, PermissionFlagsBits.ViewChannel)) throw ApiErrors.missingAccess();
        if (!hasPermissions(permissions, PermissionFlagsBits.ReadMessageHistory)) return { status: 200, body: [] };
        const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50)));
        const after = query.get('after');
        const before = query.get('before');
        const messages = deps.messages.inChannel(channelId);
        const page =
          after !== null
            ? messages.filter((message) => BigInt(message.id) > BigInt(after)).slice(0, limit)
            : messages.filter((message) => before === null || BigInt(message.id) < BigInt(before)).slice(-limit);
        const found = page.reverse().map(({ api }) => ({ ...api, nonce: undefined }));
        return { status: 200, body: found };
      },
    },
    {
      method: 'GET',
      path: '/channels/:channelId',
      auth: true,
      channelParam: 'channelId',
      handle: ({ params }) => {
        const channelId = params['channelId'] ?? '';
        const channel = deps.guilds.channel(channelId);
        if (!channel) throw ApiErrors.unknownChannel();
        const permissions = deps.guilds.channelPermissions(channelId, deps.bot.id);
        if (!hasPermissions(permissions, PermissionFlagsBits.ViewChannel)) throw ApiErrors.missingAccess();
        return { status: 200, body: channel };
      },
    },
  ];
}
