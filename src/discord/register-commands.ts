import { Routes, type REST } from 'discord.js';

import type { Command } from './command.js';
import { isSnowflake } from './snowflake.js';

export interface RegisterOptions {
  /** Registers in this guild only (visible at once there; handy while testing); omitted: globally. */
  guildId?: string;
  /** Skips `GET /applications/@me` when known. */
  applicationId?: string;
}

export interface RegisterResult {
  applicationId: string;
  guildId: string | undefined;
  names: string[];
}

/**
 * Replaces the application's commands with `commands` in ONE bulk PUT: commands missing from the list are
 * deleted by Discord, so the registered set always equals the code's, and one request stays far from the
 * command-creation rate limit that one POST per command would run into.
 * @param rest a REST client with the bot token set (and, for tests, the fake's base URL)
 */
export async function registerCommands(
  rest: REST,
  commands: ReadonlyArray<Pick<Command<never>, 'data'>>,
  options: RegisterOptions = {},
): Promise<RegisterResult> {
  if (options.guildId !== undefined && !isSnowflake(options.guildId)) {
    throw new Error(
      '--guild must be a server id (17 to 20 digits; Developer Mode → right-click the server → Copy Server ID)',
    );
  }
  const applicationId = options.applicationId ?? (await fetchApplicationId(rest));
  const route = options.guildId
    ? Routes.applicationGuildCommands(applicationId, options.guildId)
    : Routes.applicationCommands(applicationId);
  await rest.put(route, { body: commands.map((command) => command.data.toJSON()) });
  return { applicationId, guildId: options.guildId, names: commands.map((command) => command.data.name) };
}

/** The bot's application id, from Discord itself rather than from decoding the token. */
export async function fetchApplicationId(rest: REST): Promise<string> {
  const application = (await rest.get(Routes.currentApplication())) as { id?: unknown };
  if (typeof application.id !== 'string')
    throw new Error('Discord did not say which application this token belongs to');
  return application.id;
}
