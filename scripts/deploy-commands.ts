import { parseArgs } from 'node:util';
import { DiscordAPIError, REST } from 'discord.js';

import { COMMANDS } from '../commands/index.js';
import { loadConfigFieldsOrExit } from '../src/base/config.js';
import { registerCommands } from '../src/discord/register-commands.js';

/**
 * `npm run deploy-commands [-- --guild <id>]`: registers every slash command with Discord, once, by hand.
 * The bot itself never registers anything at start-up (a restart must not touch the commands, and many
 * restarts would hit Discord's rate limit on command changes).
 */

const { values } = parseArgs({ options: { guild: { type: 'string' } }, allowPositionals: false });
// Only what this script needs: it should work before PUBLIC_URL or SERVICE_URL are settled.
const config = loadConfigFieldsOrExit(['DISCORD_TOKEN', 'DISCORD_API_URL']);

const rest = new REST(config.DISCORD_API_URL ? { api: config.DISCORD_API_URL } : {}).setToken(config.DISCORD_TOKEN);
try {
  const result = await registerCommands(rest, COMMANDS, values.guild === undefined ? {} : { guildId: values.guild });
  const where = result.guildId ? `in server ${result.guildId}` : 'globally';
  process.stdout.write(`Registered ${result.names.length} commands ${where}: /${result.names.join(', /')}\n`);
} catch (error) {
  process.stderr.write(`Could not register the commands: ${describeFailure(error)}\n`);
  process.exit(1);
}

function describeFailure(error: unknown): string {
  if (error instanceof DiscordAPIError) {
    if (error.status === 401)
      return 'Discord refused DISCORD_TOKEN (401): reset the token in the developer portal and update .env.';
    if (error.status === 403) return 'the bot has no access to that server (403): invite it there first.';
    return `Discord answered ${error.status}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
