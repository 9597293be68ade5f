import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { renderMarkdown, type MarkdownContext } from '../../../demo/preview/markdown.js';

const USER = '123456789012345678';
const ROLE = '223456789012345678';
const GREY_ROLE = '423456789012345678';
const CHANNEL = '323456789012345678';
/** 2024-05-17T23:10:00Z */
const AT = Date.UTC(2024, 4, 17, 23, 10);

const ctx: MarkdownContext = {
  now: AT + 2 * 3600_000,
  timeZone: 'UTC',
  directory: {
    userName: (id) => (id === USER ? 'Kestrel <b>' : undefined),
    role: (id) =>
      id === ROLE
        ? { name: 'Mods"><i>', colour: 0xe67e22 }
        : id === GREY_ROLE
          ? { name: 'Staff', colour: 0 }
          : undefined,
    channelName: (id) => (id === CHANNEL ? 'mod-log' : undefined),
  },
};
const md = (text: string, options?: Parameters<typeof renderMarkdown>[2]) => renderMarkdown(text, ctx, options);

/** The only tags the renderer makes; whatever is left after removing them must hold no markup at all. */
const OUR_TAGS = /<\/?(?:strong|em|u|s|span|code|pre|a|br|time)(?:\s[^<>]*)?>/g;

describe("the preview's markdown", () => {
  it("renders Discord's inline styles", () => {
    expect(md('**bold** *it* _it_ __under__ ~~gone~~ ||secret||')).toBe(
      '<strong class="md-bold">bold</strong> <em class="md-italic">it</em> <em class="md-italic">it</em> ' +
        '<u class="md-underline">under</u> <s class="md-strike">gone</s> <span class="md-spoiler">secret</span>',
    );
    expect(md('***both***')).toBe('<strong class="md-bold"><em class="md-italic">both</em></strong>');
    expect(md('line one\nline two')).toBe('line one<br>line two');
  });

  it('shows escaped characters as they are, and leaves snake_case alone', () => {
    expect(md('xX\\_Sniper\\_Xx and nova\\* and \\[x\\]')).toBe('xX_Sniper_Xx and nova* and [x]');
    expect(md('tiny_turtle_77')).toBe('tiny_turtle_77');
  });

  it('renders code as text, whatever it holds', () => {
    expect(md('`` a`<b>`b ``')).toBe('<code class="md-code">a&#96;&lt;b&gt;&#96;b</code>');
    expect(md('```json\n{"a": "<script>"}\n```')).toBe(
      '<pre class="md-codeblock"><code>{&quot;a&quot;: &quot;&lt;script&gt;&quot;}</code></pre>',
    );
    expect(md('```json\n{}\n```', { blocks: false })).not.toContain('<pre');
  });

  it('makes http(s) links and nothing else', () => {
    expect(md('[profile](https://www.roblox.com/users/1/profile)')).toBe(
      '<a class="md-link" href="https://www.roblox.com/users/1/profile" target="_blank" rel="noopener noreferrer nofollow">profile</a>',
    );
    expect(md('see https://medal.tv/clip.')).toBe(
      'see <a class="md-link" href="https://medal.tv/clip" target="_blank" rel="noopener noreferrer nofollow">https://medal.tv/clip</a>.',
    );
    expect(md('[click](javascript:alert(1))')).not.toContain('<a');
    expect(md('[x](data:text/html,hi)')).not.toContain('<a');
    expect(md('[profile](https://example.com)', { links: false })).toBe('[profile](https://example.com)');
  });

  it('renders mentions as names, escaped, the role in its colour', () => {
    expect(md(`<@${USER}>`)).toBe('<span class="mention user">@Kestrel &lt;b&gt;</span>');
    expect(md('<@999999999999999999>')).toBe('<span class="mention user">@unknown-user</span>');
    expect(md(`<@&${ROLE}>`)).toBe(
      '<span class="mention role coloured" style="--role-colour: #e67e22">@Mods&quot;&gt;&lt;i&gt;</span>',
    );
    expect(md(`<@&${GREY_ROLE}>`)).toBe('<span class="mention role">@Staff</span>');
    expect(md(`<#${CHANNEL}>`)).toBe('<span class="mention channel">#mod-log</span>');
  });

  it('renders timestamps as dates and relative times', () => {
    const seconds = AT / 1000;
    expect(md(`<t:${seconds}:f> (<t:${seconds}:R>)`)).toBe(
      `<time class="md-timestamp" datetime="2024-05-17T23:10:00.000Z" data-ms="${AT}" data-style="f">May 17, 2024 11:10 PM</time> ` +
        `(<time class="md-timestamp" datetime="2024-05-17T23:10:00.000Z" data-ms="${AT}" data-style="R">2 hours ago</time>)`,
    );
    expect(md(`<t:${seconds}:D>`)).toContain('>May 17, 2024<');
    expect(md(`<t:${seconds}:F>`)).toContain('>Friday, May 17, 2024 11:10 PM<');
  });

  it('never lets markup through, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            '<',
            '>',
            '"',
            "'",
            '&',
            '`',
            '*',
            '_',
            '\\',
            '[',
            ']',
            '(',
            ')',
            ':',
            '/',
            'a',
            ' ',
            '\n',
            '|',
            '~',
            'h',
            't',
            'p',
            's',
            '@',
            '#',
            '1',
          ),
          maxLength: 120,
        }),
        (text) => {
          const html = md(text);
          const rest = html.replace(OUR_TAGS, '');
          expect(rest).not.toMatch(/[<>"]/);
          for (const tag of html.match(OUR_TAGS) ?? []) expect(tag).not.toMatch(/\son[a-z]+=|javascript:/i);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
