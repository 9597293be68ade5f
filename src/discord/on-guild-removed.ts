import { Events, type Client } from 'discord.js';

import type { Logger } from '../base/logger.js';
import { toLoggableError } from './log-error.js';

/**
 * Calls `removed` when the bot is removed from a guild (kicked, or the guild deleted): GUILD_DELETE without
 * `unavailable`. A guild outage (GUILD_DELETE with `unavailable: true`) is discord.js's `guildUnavailable`,
 * not this event, and changes nothing. A failure is logged; the next removal is handled all the same.
 */
export function onGuildRemoved(client: Client, removed: (guildId: string) => Promise<unknown>, logger: Logger): void {
  client.on(Events.GuildDelete, (guild) => {
    removed(guild.id).catch((error: unknown) =>
      logger.error({ guildId: guild.id, err: toLoggableError(error) }, 'forgetting a server the bot left failed'),
    );
  });
}
