import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';

import { createDiscordClient } from '../../../src/discord/create-client.js';
import { INVITE_PERMISSIONS, invitePermissions, inviteUrl } from '../../../src/discord/invite.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

/**
 * Permissions the code names that the invite leaves out, each with why: a new one a feature checks for itself
 * must either join the invite or be listed here with its reason.
 */
const NOT_INVITED: Record<string, string> = {
  // Checked on the member who runs an admin command (and set as the commands' default), never on the bot.
  ManageGuild: 'a member permission',
  // Optional: only a role that is not mentionable needs it to be pinged; /feed mention says so.
  MentionEveryone: 'optional',
  // Optional: only /duty role needs it, and it is not enough alone (the bot's role must also be moved above the
  // on-duty role); /duty role checks both and says which is missing (src/discord/invite.ts).
  ManageRoles: 'optional, /duty role only',
  // Checked on a role the bot is to give, never on the bot: a role carrying one is refused
  // (src/discord/role-grant-rules.ts).
  Administrator: 'refused on a role the bot gives',
  ManageChannels: 'refused on a role the bot gives',
  ManageWebhooks: 'refused on a role the bot gives',
  BanMembers: 'refused on a role the bot gives',
  KickMembers: 'refused on a role the bot gives',
};

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(ROOT, folder, path));
}

describe('the invite', () => {
  it('asks for View Channel, Send Messages, Embed Links, Read Message History, Attach Files and the two thread permissions: 309237763072', () => {
    expect(INVITE_PERMISSIONS.map((permission) => permission.name)).toEqual([
      'View Channel',
      'Send Messages',
      'Embed Links',
      'Read Message History',
      'Attach Files',
      'Create Public Threads',
      'Send Messages in Threads',
    ]);
    expect(invitePermissions()).toBe(1024n + 2048n + 16384n + 65536n + 32768n + 2n ** 35n + 2n ** 38n);
    expect(invitePermissions()).toBe(309237763072n);
  });

  it('adds the bot with its slash commands', () => {
    expect(inviteUrl('123456789012345678')).toBe(
      'https://discord.com/oauth2/authorize?client_id=123456789012345678&scope=bot%20applications.commands&permissions=309237763072',
    );
  });

  it('asks for every permission the code checks the bot for', () => {
    const named = new Set<string>();
    for (const file of sourceFiles('src')) {
      for (const match of readFileSync(file, 'utf8').matchAll(/PermissionFlagsBits\.(\w+)/g)) named.add(match[1] ?? '');
    }
    const invited = new Set(INVITE_PERMISSIONS.map((permission) => permission.bit));
    const missing = [...named].filter(
      (name) => !(name in NOT_INVITED) && !invited.has(PermissionFlagsBits[name as keyof typeof PermissionFlagsBits]),
    );
    expect(missing).toEqual([]);
    expect(named).toContain('ReadMessageHistory');
  });

  it('needs no privileged intent switched on in the developer portal: the client asks for Guilds only', async () => {
    const client = createDiscordClient();
    expect(client.options.intents.toArray()).toEqual(['Guilds']);
    await client.destroy();
  });
});
