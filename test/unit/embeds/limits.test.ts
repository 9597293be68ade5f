import type { APIEmbed } from 'discord.js';
import { describe, expect, it } from 'vitest';

import { fitLines, truncateText } from '../../../src/base/truncate-text.js';
import type { MessagePayload } from '../../../src/discord/message-payload.js';
import {
  embedLength,
  fitMessageToLimits,
  MAX_EMBEDS_PER_MESSAGE,
  MAX_MESSAGE_EMBED_CHARS,
} from '../../../src/embeds/limits.js';

const EMOJI = '😀'; // two UTF-16 units

function payloadOf(...embeds: APIEmbed[]): MessagePayload {
  return { embeds, allowed_mentions: { parse: [] } };
}

function fitOne(embed: APIEmbed): APIEmbed {
  const [fitted] = fitMessageToLimits(payloadOf(embed)).embeds;
  if (fitted === undefined) throw new Error('embed dropped');
  return fitted;
}

function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

describe('truncateText', () => {
  it('leaves text at the limit alone', () => {
    expect(truncateText('a'.repeat(256), 256)).toBe('a'.repeat(256));
  });

  it('cuts text over the limit to exactly the limit, ending with "…"', () => {
    const cut = truncateText('a'.repeat(257), 256);
    expect(cut).toHaveLength(256);
    expect(cut).toBe(`${'a'.repeat(255)}…`);
  });

  it('drops a whole emoji rather than half of it', () => {
    // 'a' then emoji at units 1–2: a cut to 3 keeps 2 units before "…", which would split the emoji.
    expect(truncateText(`a${EMOJI}bcd`, 3)).toBe('a…');
    expect(truncateText(`a${EMOJI}bcd`, 4)).toBe(`a${EMOJI}…`);
  });

  it('gives "…" alone for a limit of 1, and nothing for 0', () => {
    expect(truncateText('abc', 1)).toBe('…');
    expect(truncateText('abc', 0)).toBe('');
  });
});

describe('fitLines', () => {
  it('keeps whole lines that fit, then says how many were left out, within the limit', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
    expect(fitLines(lines, 1_000)).toBe(lines.join('\n'));
    const fitted = fitLines(lines, 30);
    expect(fitted).toBe('line 0\nline 1\n… and 8 more');
    expect(fitted.length).toBeLessThanOrEqual(30);
    // The last line fits alone when no "more" line has to follow it.
    expect(fitLines(['abc', 'def'], 7)).toBe('abc\ndef');
    expect(fitLines(['a'.repeat(50)], 20, (left) => `+${left}`)).toBe('+1');
  });
});

describe('embedLength', () => {
  it('counts title, description, field names and values, footer and author, in UTF-16 units', () => {
    const embed: APIEmbed = {
      title: 'ab',
      description: EMOJI,
      fields: [{ name: 'n', value: 'vv' }],
      footer: { text: 'fff' },
      author: { name: 'aaaa' },
      url: 'https://not.counted.example',
    };
    expect(embedLength(embed)).toBe(2 + 2 + 1 + 2 + 3 + 4);
  });
});

describe('fitMessageToLimits', () => {
  it('holds each string to its own limit, then the longest to what the 6000 rule leaves', () => {
    const fitted = fitOne({
      title: 't'.repeat(300),
      description: 'd'.repeat(5000),
      fields: [{ name: 'n'.repeat(300), value: 'v'.repeat(2000) }],
      footer: { text: 'f'.repeat(3000) },
      author: { name: 'a'.repeat(300) },
    });
    expect(fitted.title).toBe(`${'t'.repeat(255)}…`);
    expect(fitted.fields?.[0]?.name).toBe(`${'n'.repeat(255)}…`);
    expect(fitted.fields?.[0]?.value).toBe(`${'v'.repeat(1023)}…`);
    expect(fitted.footer?.text).toBe(`${'f'.repeat(2047)}…`);
    expect(fitted.author?.name).toBe(`${'a'.repeat(255)}…`);
    // 256 * 3 + 1024 + 2048 = 3840 leaves 2160 of the 6000 for the description.
    expect(fitted.description).toBe(`${'d'.repeat(2159)}…`);
    expect(embedLength(fitted)).toBe(MAX_MESSAGE_EMBED_CHARS);
  });

  it('holds strings to their limits when the total is within 6000', () => {
    const fitted = fitOne({ description: 'd'.repeat(5000), fields: [{ name: 'n', value: 'v'.repeat(1500) }] });
    expect(fitted.description).toBe(`${'d'.repeat(4095)}…`);
    expect(fitted.fields?.[0]?.value).toBe(`${'v'.repeat(1023)}…`);
  });

  it('cuts content to 2000', () => {
    const fitted = fitMessageToLimits({ ...payloadOf({ title: 'x' }), content: 'c'.repeat(2001) });
    expect(fitted.content).toBe(`${'c'.repeat(1999)}…`);
  });

  it('keeps at most 25 fields', () => {
    const fields = Array.from({ length: 30 }, (_, index) => ({ name: `f${index}`, value: 'v' }));
    expect(fitOne({ fields }).fields?.map((field) => field.name)).toEqual(fields.slice(0, 25).map((f) => f.name));
  });

  it('keeps at most 10 embeds', () => {
    const embeds = Array.from({ length: 12 }, (_, index) => ({ title: `e${index}` }));
    expect(fitMessageToLimits(payloadOf(...embeds)).embeds).toHaveLength(MAX_EMBEDS_PER_MESSAGE);
  });

  it('never leaves a field name or value empty or blank', () => {
    const fitted = fitOne({ fields: [{ name: '', value: ' \n\u0085' }] });
    expect(fitted.fields).toEqual([{ name: '\u200b', value: '\u200b' }]);
  });

  it('drops a blank title, description, footer or author rather than send them', () => {
    const fitted = fitOne({ title: ' ', description: '', footer: { text: '  ' }, author: { name: '' }, color: 1 });
    expect(fitted).toEqual({ color: 1 });
  });

  it('keeps a message within 6000 over several embeds, shortening the longest texts first', () => {
    const embed = (index: number): APIEmbed => ({
      title: `Case #${index}`,
      description: 'd'.repeat(3000),
      fields: [{ name: 'Moderator', value: '<@284102957381632001> (Maple)' }],
      footer: { text: `Server 1 · Delivery ${index}` },
    });
    const before = Array.from({ length: 4 }, (_, index) => embed(index));
    const fitted = fitMessageToLimits(payloadOf(...before)).embeds;

    const total = fitted.reduce((sum, one) => sum + embedLength(one), 0);
    expect(total).toBeLessThanOrEqual(MAX_MESSAGE_EMBED_CHARS);
    expect(total).toBeGreaterThan(MAX_MESSAGE_EMBED_CHARS - 4);
    for (const [index, one] of fitted.entries()) {
      expect(one.title).toBe(`Case #${index}`);
      expect(one.fields).toEqual(before[index]?.fields);
      expect(one.footer).toEqual(before[index]?.footer);
      expect(one.description?.endsWith('…')).toBe(true);
    }
    // The four descriptions share what is left equally.
    expect(new Set(fitted.map((one) => one.description?.length)).size).toBe(1);
  });

  it('fits 10 embeds of 25 full fields into 6000, every field still non-empty', () => {
    const fields = Array.from({ length: 25 }, () => ({ name: 'n'.repeat(256), value: 'v'.repeat(1024) }));
    const embeds = Array.from({ length: 10 }, () => ({ title: 't'.repeat(256), fields }));
    const fitted = fitMessageToLimits(payloadOf(...embeds)).embeds;
    expect(fitted.reduce((sum, one) => sum + embedLength(one), 0)).toBeLessThanOrEqual(MAX_MESSAGE_EMBED_CHARS);
    for (const field of fitted.flatMap((one) => one.fields ?? [])) {
      expect(field.name.length).toBeGreaterThan(0);
      expect(field.value.length).toBeGreaterThan(0);
    }
  });

  it('leaves a payload that fits untouched, and never changes its input', () => {
    const payload: MessagePayload = {
      content: '<@&998877665544332211>',
      embeds: [{ title: 'a', description: 'd'.repeat(7000), fields: [{ name: 'n', value: 'v', inline: true }] }],
      allowed_mentions: { parse: [], roles: ['998877665544332211'] },
    };
    const snapshot = structuredClone(payload);
    const fitted = fitMessageToLimits(payload);
    expect(payload).toEqual(snapshot);
    expect(fitted.content).toBe(payload.content);
    expect(fitted.allowed_mentions).toEqual(payload.allowed_mentions);
    expect(fitted.embeds[0]?.fields).toEqual([{ name: 'n', value: 'v', inline: true }]);

    const small = payloadOf({ title: 'x', fields: [{ name: 'n', value: 'v' }], color: 5 });
    expect(fitMessageToLimits(small)).toEqual(small);
  });

  it('never splits an emoji, and replaces lone surrogates', () => {
    const fitted = fitOne({
      title: EMOJI.repeat(200),
      description: `broken \ud83d here and \ude00 there`,
      fields: [{ name: EMOJI.repeat(200), value: `x${EMOJI.repeat(600)}` }],
    });
    for (const text of [fitted.title, fitted.description, fitted.fields?.[0]?.name, fitted.fields?.[0]?.value]) {
      expect(hasLoneSurrogate(text ?? '')).toBe(false);
    }
    expect(fitted.title).toBe(`${EMOJI.repeat(127)}…`);
    expect(fitted.fields?.[0]?.value).toBe(`x${EMOJI.repeat(511)}…`);
    expect(fitted.description).toBe('broken \ufffd here and \ufffd there');
  });
});
