import { ApplicationCommandOptionType, ChannelType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';

import { COMMANDS } from '../../../commands/index.js';
import { validateDiscordRequest } from '../../../fakes/discord/request-validator.js';

const bodies = COMMANDS.map((command) => command.data.toJSON());

describe('command definitions', () => {
  it('are the four commands of DESIGN.md, with the subcommands it names', () => {
    expect(bodies.map((body) => body.name)).toEqual(['setup', 'webhook', 'feed', 'status']);
    const subcommands = (name: string) =>
      bodies.find((body) => body.name === name)?.options?.map((option) => option.name);
    expect(subcommands('webhook')).toEqual(['register', 'test', 'enable', 'list', 'remove']);
    expect(subcommands('feed')).toEqual(['set', 'default', 'mention', 'show']);
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

  it('are admin-only (Manage Server) and guild-only', () => {
    for (const body of bodies) {
      expect(body.default_member_permissions, body.name).toBe(String(PermissionFlagsBits.ManageGuild));
      expect(body.contexts, body.name).toEqual([InteractionContextType.Guild]);
    }
  });

  it('limit every channel option to text and announcement channels', () => {
    const feed = bodies.find((body) => body.name === 'feed');
    const channelOptions = (feed?.options ?? []).flatMap((sub) =>
      'options' in sub
        ? (sub.options ?? []).filter((option) => option.type === ApplicationCommandOptionType.Channel)
        : [],
    );
    expect(channelOptions).toHaveLength(2);
    for (const option of channelOptions) {
      expect('channel_types' in option ? option.channel_types : undefined).toEqual([
        ChannelType.GuildText,
        ChannelType.GuildAnnouncement,
      ]);
    }
  });

  it('never take the server key as an option (it would show in the channel)', () => {
    expect(JSON.stringify(bodies)).not.toMatch(/"name":"(key|server_key|token)"/);
  });
});
