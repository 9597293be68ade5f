/**
 * Threads: starting a public thread from a message, with Discord's permission rules. Messages are then posted in
 * the thread through the channel routes, its id standing for a channel's.
 */
import { ChannelType, GatewayDispatchEvents, GatewayIntentBits, PermissionFlagsBits } from 'discord.js';

import { ApiErrors, DiscordApiFault } from '../api-errors.js';
import { makeThread } from '../api-objects.js';
import { hasPermissions } from '../permissions.js';
import type { RouteDeps } from './route-deps.js';
import type { Route } from './router.js';

/** Channel types a thread can be started in from a message. */
const THREAD_PARENT_TYPES = new Set<ChannelType>([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

/** The auto-archive durations Discord accepts, in minutes. */
const AUTO_ARCHIVE_MINUTES = new Set([60, 1440, 4320, 10080]);

/** `POST /channels/:channelId/messages/:messageId/threads`. */
export function threadRoutes(deps: RouteDeps): Route[] {
  return [
    {
      method: 'POST',
      path: '/channels/:channelId/messages/:messageId/threads',
      auth: true,
      channelParam: 'channelId',
      rateLimited: true,
      handle: ({ params, body }) => {
        const channelId = params['channelId'] ?? '';
        const messageId = params['messageId'] ?? '';
        const channel = deps.guilds.channel(channelId);
        if (!channel) throw ApiErrors.unknownChannel();
        const permissions = deps.guilds.channelPermissions(channelId, deps.bot.id);
        if (!hasPermissions(permissions, PermissionFlagsBits.ViewChannel)) throw ApiErrors.missingAccess();
        if (!THREAD_PARENT_TYPES.has(channel.type)) {
          throw new DiscordApiFault(400, 50024, 'Cannot execute action on this channel type');
        }
        // Reading the message to start from needs Read Message History as well.
        const needed = PermissionFlagsBits.CreatePublicThreads | PermissionFlagsBits.ReadMessageHistory;
        if (!hasPermissions(permissions, needed)) throw ApiErrors.missingPermissions();
        const message = deps.messages.get(messageId);
        if (!message || message.channel_id !== channelId || message.ephemeral) throw ApiErrors.unknownMessage();
        if (deps.guilds.thread(messageId)) throw ApiErrors.threadAlreadyCreated();

        const { name, auto_archive_duration: minutes } = body as { name: string; auto_archive_duration?: number };
        if (minutes !== undefined && !AUTO_ARCHIVE_MINUTES.has(minutes)) {
          throw new DiscordApiFault(400, 50035, 'Invalid Form Body: auto_archive_duration');
        }
        const thread = makeThread({
          messageId,
          parentId: channelId,
          guildId: channel.guild_id,
          ownerId: deps.bot.id,
          name,
          autoArchiveMinutes: minutes ?? 4320,
        });
        deps.guilds.addThread(thread);
        deps.gateway.dispatch(
          GatewayDispatchEvents.ThreadCreate,
          { ...thread, newly_created: true },
          GatewayIntentBits.Guilds,
        );
        deps.onChange();
        return { status: 201, body: thread };
      },
    },
  ];
}
