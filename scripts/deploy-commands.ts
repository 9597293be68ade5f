import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DiscordAPIError, REST } from 'discord.js';

import { COMMANDS } from '../commands/index.js';
import { ConfigSchema } from '../src/config.js';
import { registerCommands } from '../src/discord/register-commands.js';

/**
 * `npm run deploy-commands [-- --guild <id>]`: registers every slash command with Discord, once, by hand.
 * The bot itself never registers anything at start-up (a restart must not touch the commands, and many
 * restarts would hit Discord's rate limit on command changes).
 */

// Only what this script needs: it should work before PUBLIC_URL or SERVICE_URL are settled.
const DeployConfigSchema = ConfigSchema.pick({ DISCORD_TOKEN: true, DISCORD_API_URL: true });

if (existsSync('.env')) process.loadEnvFile('.env');

const { values } = parseArgs({ options: { guild: { type: 'string' } }, allowPositionals: false });
const present = Object.fromEntries(
  Object.entries(process.env).filter(([, value]) => value !== undefined && value !== ''),
);
const parsed = DeployConfigSchema.safeParse(present);
if (!parsed.success) {
  const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join('.')} ${issue.message}`);
  process.stderr.write(`Configuration problems (set them in .env or the environment):\n${problems.join('\n')}\n`);
  process.exit(1);
}

const rest = new REST(parsed.data.DISCORD_API_URL ? { api: parsed.data.DISCORD_API_URL } : {}).setToken(
  parsed.data.DISCORD_TOKEN,
);
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
