import {
  ActionRowBuilder,
  EmbedBuilder,
  ModalBuilder,
  PermissionFlagsBits,
  SlashCommandBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { describe, expect, it } from 'vitest';

import {
  assertValidCreateMessage,
  InvalidDiscordRequestError,
  matchDiscordRoute,
  validateDiscordRequest,
} from '../../../fakes/discord/request-validator.js';

const CREATE = '/api/v10/channels/123456789012345678/messages';

function embed(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Case #12', description: 'Kicked for spam', color: 0xe67e22, ...overrides };
}

describe('validateDiscordRequest', () => {
  it('accepts a realistic message with embeds, nonce and allowed_mentions', () => {
    const body = {
      content: '<@&42> new modcall',
      embeds: [
        new EmbedBuilder()
          .setTitle('Modcall')
          .setDescription('Player needs help')
          .addFields({ name: 'Server', value: 'EU 1', inline: true })
          .setFooter({ text: 'delivery abc' })
          .setTimestamp(new Date('2024-01-01T00:00:00Z'))
          .toJSON(),
      ],
      allowed_mentions: { parse: [], roles: ['42'] },
      nonce: 'd1f3a9c2',
      enforce_nonce: true,
    };
    expect(validateDiscordRequest('POST', CREATE, body)).toEqual([]);
    expect(() => assertValidCreateMessage(body)).not.toThrow();
  });

  it('refuses a title over 256 characters', () => {
    expect(validateDiscordRequest('POST', CREATE, { embeds: [embed({ title: 'x'.repeat(300) })] })).toEqual([
      '/embeds/0/title: must NOT have more than 256 characters',
    ]);
  });

  it('refuses 11 embeds', () => {
    const embeds = Array.from({ length: 11 }, () => embed());
    expect(validateDiscordRequest('POST', CREATE, { embeds })).toEqual(['/embeds: must NOT have more than 10 items']);
  });

  it('counts 6000 characters over all embeds of a message', () => {
    const fits = [{ description: 'a'.repeat(4000) }, { description: 'b'.repeat(2000), color: 0x5865f2 }];
    expect(validateDiscordRequest('POST', CREATE, { embeds: fits })).toEqual([]);

    const over = [...fits, { footer: { text: 'c' } }];
    expect(validateDiscordRequest('POST', CREATE, { embeds: over })).toEqual([
      '/embeds: embed size exceeds maximum size of 6000 characters (got 6001)',
    ]);
  });

  it('counts field names and values, footer text and author name towards the 6000', () => {
    const fields = Array.from({ length: 5 }, () => ({ name: 'n'.repeat(200), value: 'v'.repeat(1000) }));
    const body = { embeds: [{ fields, footer: { text: 'f'.repeat(1) } }] };
    expect(validateDiscordRequest('POST', CREATE, body)).toEqual([
      '/embeds: embed size exceeds maximum size of 6000 characters (got 6001)',
    ]);
    const withAuthor = { embeds: [{ fields, author: { name: 'a' } }] };
    expect(validateDiscordRequest('POST', CREATE, withAuthor)).toHaveLength(1);
  });

  it('refuses wrong types, empty messages, empty field values and bot content over 2000', () => {
    expect(validateDiscordRequest('POST', CREATE, { content: 42 })).toContain('/content: must be string,null');
    expect(validateDiscordRequest('POST', CREATE, {})).toEqual([
      '/: cannot send an empty message (no content, embeds, components, stickers, poll or files)',
    ]);
    expect(validateDiscordRequest('POST', CREATE, { embeds: [{ fields: [{ name: 'a', value: '' }] }] })).toEqual([
      '/embeds/0/fields/0/value: must not be empty',
    ]);
    expect(validateDiscordRequest('POST', CREATE, { content: 'x'.repeat(2001) })[0]).toMatch(/2000 or fewer/);
    expect(
      validateDiscordRequest('POST', CREATE, { content: 'x', allowed_mentions: { parse: ['everyone', 'all'] } }),
    ).toEqual(['/allowed_mentions/parse/1: must be one of null, "users", "roles", "everyone"']);
  });

  it('names the problem inside a tagged union instead of listing every branch', () => {
    const path = '/api/v10/interactions/1/token/callback?with_response=false';
    expect(validateDiscordRequest('POST', path, { type: 99 })).toEqual([
      '/type: must be one of 8, 4, 5, 12, 9, 1, 13, 6, 7',
    ]);
    expect(validateDiscordRequest('POST', path, { type: 4, data: { content: 'hi', flags: 64 } })).toEqual([]);
    expect(validateDiscordRequest('POST', path, { type: 4, data: { embeds: [embed({ color: -1 })] } })).toEqual([
      '/data/embeds/0/color: must be >= 0',
    ]);
  });

  it('accepts what discord.js builders produce for modals and slash commands', () => {
    const modal = new ModalBuilder()
      .setCustomId('setup')
      .setTitle('Server key')
      .addComponents(
        new ActionRowBuilder<TextInputBuilder>().addComponents(
          new TextInputBuilder().setCustomId('key').setLabel('Key').setStyle(TextInputStyle.Short),
        ),
      );
    expect(
      validateDiscordRequest('POST', '/api/v10/interactions/1/t/callback', { type: 9, data: modal.toJSON() }),
    ).toEqual([]);

    const command = new SlashCommandBuilder()
      .setName('feed')
      .setDescription('Route events')
      .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
      .addSubcommand((sub) =>
        sub
          .setName('set')
          .setDescription('Set a channel')
          .addChannelOption((o) => o.setName('channel').setDescription('Where').setRequired(true))
          .addRoleOption((o) => o.setName('role').setDescription('Who to ping')),
      );
    expect(validateDiscordRequest('PUT', '/api/v10/applications/1/guilds/2/commands', [command.toJSON()])).toEqual([]);
    expect(validateDiscordRequest('PUT', '/api/v10/applications/1/commands', [{ name: 'x'.repeat(33) }])).toEqual([
      '/0/name: must NOT have more than 32 characters',
    ]);
  });

  it('matches concrete paths to the templates and ignores routes it has no schema for', () => {
    expect(matchDiscordRoute('patch', '/api/v10/webhooks/1/abc/messages/@original')).toBe(
      '/webhooks/{webhook_id}/{webhook_token}/messages/@original',
    );
    expect(matchDiscordRoute('POST', '/webhooks/1/abc?wait=true')).toBe('/webhooks/{webhook_id}/{webhook_token}');
    expect(validateDiscordRequest('GET', '/api/v10/gateway/bot', undefined)).toEqual([]);
  });

  it('assertValidCreateMessage throws with the problems', () => {
    const error = (() => {
      try {
        assertValidCreateMessage({ embeds: [embed({ title: 'x'.repeat(257) })] });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidDiscordRequestError);
    expect((error as InvalidDiscordRequestError).problems).toEqual([
      '/embeds/0/title: must NOT have more than 256 characters',
    ]);
  });
});
