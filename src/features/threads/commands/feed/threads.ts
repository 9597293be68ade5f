import { ChannelType, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import type { CommandBasics } from '../../../../discord/command.js';
import { findMissingPermissions } from '../../../../discord/feed-channel.js';
import { replyEphemeral } from '../../../../discord/reply.js';
import type { GuildSettings, GuildSettingsStore } from '../../../../store/guild-settings.js';
import { channelOf, resolveRoute } from '../../../../store/routing-rules.js';
import type { ThreadsDeps } from '../../feature.js';

/** What /feed threads is given: the session threads, and the routing (where session cards are posted). */
export type FeedThreadsDeps = Pick<CommandBasics, 'client'> & ThreadsDeps & { guilds: Pick<GuildSettingsStore, 'get'> };

/** What the bot needs where session cards are posted to open a thread from each and post in it, with why. */
const THREAD_PERMISSIONS = [
  // To start a thread from the session's card.
  { bit: PermissionFlagsBits.CreatePublicThreads, name: 'Create Public Threads' },
  // To post the log and the report in it (Send Messages does not cover threads).
  { bit: PermissionFlagsBits.SendMessagesInThreads, name: 'Send Messages in Threads' },
  // Discord reads the card to start the thread from it.
  { bit: PermissionFlagsBits.ReadMessageHistory, name: 'Read Message History' },
];

/**
 * /feed threads event:session on: a thread opened from each session's card, with the session's log and its
 * after-action report. Turning it on is refused while session cards go nowhere, or where the bot could not open
 * threads; sessions already running get a thread from their card too. Turned off, threads already open are still
 * finished (log and report).
 */
export async function setSessionThreads(
  interaction: ChatInputCommandInteraction,
  ctx: FeedThreadsDeps,
  guildId: string,
): Promise<void> {
  const on = interaction.options.getBoolean('on', true);
  if (!on) {
    await ctx.sessionThreads.setOn(guildId, false);
    return replyEphemeral(interaction, 'Sessions to come get no thread. Threads of sessions running now are finished.');
  }
  const channels = sessionCardChannels(await ctx.guilds.get(guildId));
  if (channels.length === 0) {
    throw new UserFacingError(
      'Session cards are not posted anywhere yet: choose their channel with /feed set event:session.started first.',
    );
  }
  for (const channelId of channels) {
    const channel = await ctx.client.channels.fetch(channelId).catch(() => null);
    if (channel?.type !== ChannelType.GuildText && channel?.type !== ChannelType.GuildAnnouncement) {
      throw new UserFacingError(`I cannot open threads in <#${channelId}>: I cannot see it as a text channel.`);
    }
    const missing = await findMissingPermissions(channel, THREAD_PERMISSIONS);
    if (missing.length > 0) {
      throw new UserFacingError(
        `I cannot open session threads in <#${channelId}>: I am missing ${missing.join(', ')} there. ` +
          'Grant them and run the command again; nothing was saved.',
      );
    }
  }
  await ctx.sessionThreads.setOn(guildId, true);
  const running = await ctx.threadRunningSessions(guildId);
  await replyEphemeral(
    interaction,
    `Each session's card now opens a thread (in ${channels.map((id) => `<#${id}>`).join(', ')}) with the session's ` +
      'log: its cases, modcalls and shift changes as they come; when it ends, the thread gets its after-action report.' +
      (running === 0
        ? ''
        : running === 1
          ? ' The session running now gets one too.'
          : ` The ${running} sessions running now get one too.`),
  );
}

/** Every channel a session's card may be posted to: the event's route, and each game server's own. */
export function sessionCardChannels(settings: GuildSettings): string[] {
  const event = 'session.started';
  const servers = new Set(settings.rules.map((rule) => rule.server).filter((server) => server !== undefined));
  const found = [undefined, ...servers].map((server) => channelOf(resolveRoute(settings, { event, server })));
  return [...new Set(found.filter((channelId) => channelId !== undefined))];
}
