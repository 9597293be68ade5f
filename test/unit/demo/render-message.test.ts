import { describe, expect, it } from 'vitest';

import type { MarkdownContext } from '../../../demo/preview/markdown.js';
import {
  continuesGroup,
  layOutFields,
  renderEmbed,
  renderMessage,
  type PreviewMessage,
} from '../../../demo/preview/render-message.js';

const NOW = Date.UTC(2024, 4, 17, 23, 30);
const ctx: MarkdownContext = {
  now: NOW,
  timeZone: 'UTC',
  directory: {
    userName: () => undefined,
    role: () => ({ name: 'Moderators', colour: 0xe67e22 }),
    channelName: () => undefined,
  },
};

const message = (overrides: Partial<PreviewMessage> = {}): PreviewMessage => ({
  id: '1',
  content: '',
  embeds: [],
  timestamp: new Date(NOW).toISOString(),
  author: { name: 'Feed Bridge', bot: true },
  ...overrides,
});

describe("the preview's embeds", () => {
  it('lays inline fields out three to a row, and a field that is not inline on a row of its own', () => {
    const inline = { inline: true };
    expect(layOutFields([inline, inline, {}, inline, inline, inline, inline])).toEqual([
      '1 / 7',
      '7 / 13',
      '1 / 13',
      '1 / 5',
      '5 / 9',
      '9 / 13',
      '1 / 13',
    ]);
  });

  it('draws colour bar, linked title, description, fields and footer with the timestamp', () => {
    const html = renderEmbed(
      {
        title: 'Case #12 · Warn',
        url: 'https://example.com/case/12',
        description: '**Reason**',
        color: 0xeb459e,
        fields: [{ name: 'Caller', value: 'Player', inline: true }],
        footer: { text: 'Server 1 · Delivery dlv_1' },
        timestamp: new Date(NOW - 60_000).toISOString(),
      },
      ctx,
    );
    expect(html).toContain('style="border-left-color: #eb459e"');
    expect(html).toContain('<div class="embed-title"><a class="md-link" href="https://example.com/case/12"');
    expect(html).toContain('<div class="embed-description"><strong class="md-bold">Reason</strong></div>');
    expect(html).toContain(
      '<div class="embed-field inline" style="grid-column: 1 / 13"><div class="embed-field-name">Caller</div><div class="embed-field-value">Player</div></div>',
    );
    expect(html).toContain(
      '<span>Server 1 · Delivery dlv_1</span><span class="embed-footer-separator">•</span><time class="embed-timestamp" datetime="2024-05-17T23:29:00.000Z">Today at 11:29 PM</time>',
    );
  });

  it('escapes every text and refuses links that are not http(s)', () => {
    const html = renderEmbed(
      {
        title: '<img src=x onerror=alert(1)>',
        url: 'javascript:alert(1)',
        author: { name: '"><script>', url: 'data:text/html,x' },
        footer: { text: '</div><script>alert(1)</script>' },
        fields: [{ name: '<b>', value: '<i>' }],
      },
      ctx,
    );
    expect(html).not.toMatch(/<(img|script|b|i)[\s>]/);
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('data:text');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('groups messages of one author within seven minutes, as Discord does', () => {
    const first = message();
    expect(continuesGroup(undefined, first)).toBe(false);
    expect(continuesGroup(first, message({ id: '2', timestamp: new Date(NOW + 60_000).toISOString() }))).toBe(true);
    expect(continuesGroup(first, message({ id: '2', timestamp: new Date(NOW + 8 * 60_000).toISOString() }))).toBe(
      false,
    );
    expect(continuesGroup(first, message({ id: '2', author: { name: 'someone', bot: false } }))).toBe(false);
    const html = renderMessage(message({ content: '<@&223456789012345678>' }), ctx);
    expect(html).toContain('<span class="message-author">Feed Bridge</span><span class="app-tag">APP</span>');
    expect(html).toContain('@Moderators</span>');
    expect(renderMessage(message(), ctx, true)).not.toContain('message-author');
  });

  it('lists the files a message carries under it, but not the one an embed draws as its image', () => {
    const html = renderMessage(
      message({
        embeds: [{ title: 'Weekly digest', image: { url: 'attachment://chart.png' } }],
        files: {
          'chart.png': 'http://127.0.0.1:9/attachments/1/chart.png',
          'case-1-7-evidence.html': 'http://127.0.0.1:9/attachments/2/case-1-7-evidence.html',
          '"><script>.html': 'javascript:alert(1)',
        },
      }),
      ctx,
    );
    expect(html).toContain(
      '<div class="message-files"><a class="message-file" href="http://127.0.0.1:9/attachments/2/case-1-7-evidence.html" ' +
        'target="_blank" rel="noopener noreferrer nofollow"><span class="message-file-name">case-1-7-evidence.html</span></a>' +
        '<span class="message-file"><span class="message-file-name">&quot;&gt;&lt;script&gt;.html</span></span></div>',
    );
    expect(html).not.toContain('message-file-name">chart.png');
    expect(html).toContain('<img class="embed-image" src="http://127.0.0.1:9/attachments/1/chart.png"');
    expect(html).not.toContain('javascript:');
    expect(renderMessage(message(), ctx)).not.toContain('message-files');
  });
});
