import { ApplicationCommandOptionType, ChannelType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';

import { validateDiscordRequest } from '../../../fakes/discord/request-validator.js';
import { COMMANDS } from '../../../src/commands/index.js';

const bodies = COMMANDS.map((command) => command.data.toJSON());

describe('command definitions', () => {
  it("are the six commands of DESIGN.md, /alerts, /audit, the record's (/export too), /duty, the digest's and /conduct, with the subcommands they name", () => {
    expect(bodies.map((body) => body.name)).toEqual([
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
    ]);
    const subcommands = (name: string) =>
      bodies.find((body) => body.name === name)?.options?.map((option) => option.name);
    expect(subcommands('webhook')).toEqual(['register', 'test', 'enable', 'list', 'remove']);
    expect(subcommands('feed')).toEqual([
      'set',
      'off',
      'clear',
      'default',
      'mention',
      'threads',
      'replay',
      'show',
      'held',
    ]);
    expect(subcommands('alerts')).toEqual(['set', 'off', 'show']);
    expect(subcommands('record')).toEqual(['retention', 'staff-role', 'mine', 'forget']);
    expect(subcommands('case')).toEqual(['lookup', 'evidence']);
    expect(subcommands('staff')).toEqual([
      'stats',
      'response',
      'activity',
      'infraction',
      'infraction-void',
      'history',
      'promote',
      'demote',
      'ranks',
      'setup',
    ]);
    expect(subcommands('leaderboard')).toEqual(['shifts', 'cases', 'modcalls']);
    expect(subcommands('duty')).toEqual(['board', 'role', 'minimum']);
    expect(subcommands('quota')).toEqual(['set', 'clear', 'list']);
    expect(subcommands('digest')).toEqual(['set', 'off', 'show']);
    expect(subcommands('conduct')).toEqual(['channel', 'role', 'set', 'show']);
    expect(subcommands('leave')).toEqual(['request', 'list', 'end', 'cancel', 'channel', 'managers', 'role']);
    expect(subcommands('app')).toEqual([
      'key',
      'list',
      'show',
      'watch',
      'unwatch',
      'submit',
      'new',
      'withdraw',
      'uploads',
      'managers',
    ]);
  });

  it("are valid for one bulk PUT, globally and per guild, against Discord's published schema", () => {
    expect(validateDiscordRequest('PUT', '/api/v10/applications/1234567890123456789/commands', bodies)).toEqual([]);
    expect(
      validateDiscordRequest(
        'PUT',
        '/api/v10/applications/1234567890123456789/guilds/2234567890123456789/commands',
        bodies,
      ),
    ).toEqual([]);
  });

  it('are guild-only, and the feed commands admin-only (Manage Server)', () => {
    for (const body of bodies) expect(body.contexts, body.name).toEqual([InteractionContextType.Guild]);
    for (const body of bodies.filter((candidate) =>
      [
        'setup',
        'webhook',
        'feed',
        'alerts',
        'status',
        'audit',
        'export',
        'duty',
        'quota',
        'digest',
        'conduct',
      ].includes(candidate.name),
    )) {
      expect(body.default_member_permissions, body.name).toBe(String(PermissionFlagsBits.ManageGuild));
    }
  });

  it("leave /app, /store and the record's readers open to members, whose subcommands check permission when they run", () => {
    // Members list apps, read the store and (with the release-manager role) submit: Discord's default
    // permissions would hide the whole command from them; the admin subcommands check Manage Server themselves.
    // /case, /staff and /leaderboard answer admins and the staff role an admin names (/record staff-role).
    // /record mine answers every member about themselves; /record's other subcommands check Manage Server.
    for (const name of ['app', 'store', 'record', 'case', 'staff', 'leaderboard', 'leave']) {
      expect(bodies.find((body) => body.name === name)?.default_member_permissions, name).toBeUndefined();
    }
  });

  it('limit every channel option to text and announcement channels', () => {
    const channelOptions = bodies.flatMap((body) =>
      (body.options ?? []).flatMap((sub) =>
        'options' in sub
          ? (sub.options ?? []).filter((option) => option.type === ApplicationCommandOptionType.Channel)
          : [],
      ),
    );
    // /feed set, /feed default, /feed replay, /alerts set, /app watch, /duty board, /digest set, /staff setup,
    // /conduct channel, /leave channel.
    expect(channelOptions).toHaveLength(10);
    for (const option of channelOptions) {
      expect('channel_types' in option ? option.channel_types : undefined).toEqual([
        ChannelType.GuildText,
        ChannelType.GuildAnnouncement,
      ]);
    }
  });

  it('never take a key as an option (it would show in the channel): /setup and /app key ask in a dialog', () => {
    const options = bodies.flatMap((body) =>
      (body.options ?? []).flatMap((option) => ('options' in option ? (option.options ?? []) : [option])),
    );
    expect(options.length).toBeGreaterThan(10);
    for (const option of options) expect(option.name).not.toMatch(/^(key|server_key|developer_key|token)$/);
    const key = bodies.find((body) => body.name === 'app')?.options?.find((option) => option.name === 'key');
    expect(key && 'options' in key ? (key.options ?? []) : []).toEqual([]);
  });
});
