import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REST } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startFakeDiscord, type AddedGuild, type FakeDiscord } from '../../fakes/discord/index.js';
import { COMMANDS } from '../../src/commands/index.js';
import { registerCommands } from '../../src/discord/register-commands.js';

const run = promisify(execFile);
const NAMES = [
  'setup',
  'webhook',
  'alerts',
  'audit',
  'app',
  'store',
  'record',
  'case',
  'leaderboard',
  'export',
  'duty',
  'quota',
  'digest',
  'conduct',
  'leave',
  'feed',
  'status',
  'staff',
];
/**
 * View Channel (1024) + Send Messages (2048) + Embed Links (16384) + Read Message History (65536) + Attach Files
 * (32768) + Create Public Threads (2^35) + Send Messages in Threads (2^38).
 */
const PERMISSIONS = 309237763072;

let discord: FakeDiscord;
let guild: AddedGuild;

beforeEach(async () => {
  discord = await startFakeDiscord();
  guild = discord.addGuild();
});

afterEach(async () => {
  await discord.close();
});

/** The PUTs that registered commands: the whole point is that there is exactly one. */
function commandPuts() {
  return discord.requests.filter((request) => request.method === 'PUT' && request.path.endsWith('/commands'));
}

describe('deploy-commands', () => {
  it("registers every command globally with one PUT, valid against Discord's schema", async () => {
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    const result = await registerCommands(rest, COMMANDS);
    expect(result).toEqual({ applicationId: discord.applicationId, guildId: undefined, names: NAMES });
    expect(commandPuts()).toHaveLength(1);
    expect(commandPuts()[0]?.path).toBe(`/applications/${discord.applicationId}/commands`);
    expect(discord.violations).toEqual([]);
    expect(discord.commands().map((command) => command.name)).toEqual(NAMES);
  });

  function inviteLines(): string {
    return (
      `Invite the bot (View Channel, Send Messages, Embed Links, Read Message History, Attach Files, Create Public Threads, Send Messages in Threads: permissions ${PERMISSIONS}):\n` +
      `https://discord.com/oauth2/authorize?client_id=${discord.applicationId}&scope=bot%20applications.commands` +
      `&permissions=${PERMISSIONS}\n`
    );
  }

  it('runs as `npm run deploy-commands -- --guild <id>`, registering in that guild only and printing the invite', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/deploy-commands.ts', '--guild', guild.id],
      { env: { ...process.env, DISCORD_TOKEN: discord.botToken, DISCORD_API_URL: discord.apiUrl } },
    );
    expect(stdout).toBe(
      `Registered 18 commands in server ${guild.id}: /setup, /webhook, /alerts, /audit, /app, /store, /record, /case, /leaderboard, /export, /duty, /quota, /digest, /conduct, /leave, /feed, /status, /staff\n` +
        inviteLines(),
    );
    expect(commandPuts()).toHaveLength(1);
    expect(commandPuts()[0]?.path).toBe(`/applications/${discord.applicationId}/guilds/${guild.id}/commands`);
    expect(discord.violations).toEqual([]);
    expect(discord.commands(guild.id).map((command) => command.name)).toEqual(NAMES);
    expect(discord.commands()).toEqual([]);
  });

  it('prints the invite when a server refuses the commands because the bot is not in it yet', async () => {
    discord.failRequests({ status: 403, match: /^\/applications\/\d+\/guilds\/\d+\/commands$/ });
    const env = { ...process.env, DISCORD_TOKEN: discord.botToken, DISCORD_API_URL: discord.apiUrl };
    const failure = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/deploy-commands.ts', '--guild', guild.id],
      { env },
    ).then(
      () => undefined,
      (error: unknown) => error as { code: number; stdout: string; stderr: string },
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toBe(
      'Could not register the commands: the bot has no access to that server (403): invite it there first.\n',
    );
    expect(failure?.stdout).toBe(inviteLines());
  });

  it('says what is wrong, without the token, when the configuration is missing', async () => {
    const env = { ...process.env, DISCORD_TOKEN: '', DISCORD_API_URL: discord.apiUrl };
    const failure = await run(process.execPath, ['--import', 'tsx', 'scripts/deploy-commands.ts'], { env }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('DISCORD_TOKEN is required');
    expect(commandPuts()).toHaveLength(0);
  });
});
