import { describe, expect, it } from 'vitest';

import { renderCaseCreated } from '../../../src/embeds/case-created.js';
import { AT, AT_SECONDS, dataOf, makeEvent, MODERATOR_ID, SERVER } from './events.js';
import { fieldNames, fieldValue, onlyEmbed } from './read-payload.js';

function renderWith(change: (data: ReturnType<typeof dataOf<'case.created'>>) => void) {
  const data = dataOf('case.created');
  change(data);
  return renderCaseCreated(makeEvent('case.created', data), {});
}

describe('renderCaseCreated', () => {
  it('shows a warn case as staff read it', () => {
    const payload = renderCaseCreated(makeEvent('case.created'), {});
    const embed = onlyEmbed(payload);

    expect(embed.title).toBe('Case #1287 · Warn');
    expect(embed.color).toBe(0xffbf00);
    expect(fieldNames(payload)).toEqual(['Target', 'Moderator', 'In game', 'Reason', 'Created']);
    expect(fieldValue(payload, 'Target')).toBe('[xX\\_Speedy\\_Xx](https://www.roblox.com/users/1843920571/profile)');
    expect(fieldValue(payload, 'Moderator')).toBe(`<@${MODERATOR_ID}> (Maple)`);
    expect(fieldValue(payload, 'In game')).toBe('Yes');
    expect(fieldValue(payload, 'Reason')).toBe('RDM in the spawn zone after a verbal warning');
    expect(fieldValue(payload, 'Created')).toBe(`<t:${AT_SECONDS}:f> (<t:${AT_SECONDS}:R>)`);
    expect(embed.footer).toEqual({ text: `Server ${SERVER} · Delivery dlv_case_created_01` });
    expect(embed.timestamp).toBe(new Date(AT).toISOString());
    expect(payload.content).toBeUndefined();
    expect(payload.allowed_mentions).toEqual({ parse: [] });
  });

  it.each([
    ['kick', 'Kick', 0xe67e22],
    ['ban', 'Ban', 0xed4245],
    ['BAN', 'Ban', 0xed4245],
    ['mute', 'mute', 0x95a5a6],
    ['tempban_7d', 'tempban\\_7d', 0x95a5a6],
  ])('titles and colours type %s', (type, label, colour) => {
    const embed = onlyEmbed(renderWith((data) => (data.case.type = type)));
    expect(embed.title).toBe(`Case #1287 · ${label}`);
    expect(embed.color).toBe(colour);
  });

  it('says "No" for a case made outside the game', () => {
    expect(
      fieldValue(
        renderWith((data) => (data.case.inGame = false)),
        'In game',
      ),
    ).toBe('No');
  });

  it('leaves evidence out when it is null', () => {
    expect(fieldNames(renderWith((data) => (data.case.evidence = null)))).not.toContain('Evidence');
  });

  it('shows URL evidence as a bare link', () => {
    const payload = renderWith((data) => (data.case.evidence = 'https://medal.tv/games/roblox/clips/1a2b3c'));
    expect(fieldValue(payload, 'Evidence')).toBe('https://medal.tv/games/roblox/clips/1a2b3c');
  });

  it('encodes parentheses and spaces in URL evidence so the link is not cut short', () => {
    const payload = renderWith((data) => (data.case.evidence = 'https://example.com/clip (1).mp4'));
    expect(fieldValue(payload, 'Evidence')).toBe('https://example.com/clip%20%281%29.mp4');
  });

  it('shows object evidence as JSON in inline code', () => {
    const evidence = { clips: ['https://streamable.com/x1'], chatLog: true };
    const payload = renderWith((data) => (data.case.evidence = evidence));
    expect(fieldValue(payload, 'Evidence')).toBe('`` {"clips":["https://streamable.com/x1"],"chatLog":true} ``');
  });

  it('shows text evidence as inline code that backticks cannot break out of', () => {
    const payload = renderWith((data) => (data.case.evidence = 'see ```ticket``` #42'));
    expect(fieldValue(payload, 'Evidence')).toBe('`` see `\u200b`\u200b`ticket`\u200b`\u200b` #42 ``');
  });

  it('cuts long evidence visibly', () => {
    const value = fieldValue(
      renderWith((data) => (data.case.evidence = 'x'.repeat(5000))),
      'Evidence',
    );
    expect(value).toBe(`\`\` ${'x'.repeat(199)}… \`\``);
  });

  it('shows a moderator whose id is not a snowflake without a mention', () => {
    const payload = renderWith((data) => (data.case.moderator = { discordId: 'system', name: 'AutoMod' }));
    expect(fieldValue(payload, 'Moderator')).toBe('AutoMod (ID `` system ``)');
  });

  it('shows a target whose Roblox id is not digits as plain text', () => {
    const payload = renderWith((data) => (data.case.target = { robloxId: 'abc', name: 'Guest' }));
    expect(fieldValue(payload, 'Target')).toBe('Guest (Roblox ID `` abc ``)');
  });

  it('escapes markdown in the reason and the names', () => {
    const payload = renderWith((data) => {
      data.case.reason = '# Big\n> quoted\n**bold** [link](https://evil.example)';
      data.case.target.name = 'a]b(c';
    });
    expect(fieldValue(payload, 'Reason')).toBe(
      '\\# Big\n\\> quoted\n\\*\\*bold\\*\\* \\[link\\](https://evil.example)',
    );
    expect(fieldValue(payload, 'Target')).toBe('[a\\]b(c](https://www.roblox.com/users/1843920571/profile)');
  });

  it('escapes every masked link in the reason, not only the first', () => {
    const payload = renderWith((data) => (data.case.reason = 'see [a](https://a.example) and [b](https://b.example)'));
    expect(fieldValue(payload, 'Reason')).toBe('see \\[a\\](https://a.example) and \\[b\\](https://b.example)');
  });

  it('shows a blank reason as a dash, since Discord refuses an empty field', () => {
    expect(
      fieldValue(
        renderWith((data) => (data.case.reason = '  \n ')),
        'Reason',
      ),
    ).toBe('—');
  });
});
