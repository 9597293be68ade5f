import { parseArgs } from 'node:util';
import { DiscordAPIError, REST } from 'discord.js';

import { loadConfigFieldsOrExit } from '../src/base/config.js';
import { COMMANDS } from '../src/commands/index.js';
import { INVITE_PERMISSIONS, invitePermissions, inviteUrl } from '../src/discord/invite.js';
import { fetchApplicationId, registerCommands } from '../src/discord/register-commands.js';

/**
 * `npm run deploy-commands [-- --guild <id>]`: registers every slash command with Discord, once, by hand, and
 * prints the invite address with the permissions the bot needs. The bot itself never registers anything at
 * start-up (a restart must not touch the commands, and many restarts would hit Discord's rate limit on command
 * changes).
 */

const { values } = parseArgs({ options: { guild: { type: 'string' } }, allowPositionals: false });
// Only what this script needs: it should work before PUBLIC_URL or SERVICE_URL are settled.
const config = loadConfigFieldsOrExit(['DISCORD_TOKEN', 'DISCORD_API_URL']);

const rest = new REST(config.DISCORD_API_URL ? { api: config.DISCORD_API_URL } : {}).setToken(config.DISCORD_TOKEN);
const applicationId = await fetchApplicationId(rest).catch((error: unknown) => fail(error));
const registered = await register(values.guild);
// Printed when registering failed too: a server the bot is not in yet refuses its commands (403) until it is invited.
const names = INVITE_PERMISSIONS.map((permission) => permission.name).join(', ');
process.stdout.write(`Invite the bot (${names}: permissions ${invitePermissions()}):\n${inviteUrl(applicationId)}\n`);
if (!registered) process.exit(1);

async function register(guildId: string | undefined): Promise<boolean> {
  try {
    const result = await registerCommands(rest, COMMANDS, {
      applicationId,
      ...(guildId === undefined ? {} : { guildId }),
    });
    const where = result.guildId ? `in server ${result.guildId}` : 'globally';
    process.stdout.write(`Registered ${result.names.length} commands ${where}: /${result.names.join(', /')}\n`);
    return true;
  } catch (error) {
    process.stderr.write(`Could not register the commands: ${describeFailure(error)}\n`);
    return false;
  }
}

function fail(error: unknown): never {
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
