import { describe, expect, it } from 'vitest';

import { validateDiscordRequest } from '../../../fakes/discord/request-validator.js';
import { formatEvidence } from '../../../src/embeds/evidence.js';
import { renderDelivery } from '../../../src/embeds/render-delivery.js';
import { classifyDelivery } from '../../../src/upstream/schemas.js';
import { SAMPLE_DELIVERIES } from '../../fixtures/deliveries.js';

const url = (n: number) => `https://cdn.example.test/clips/${String(n).padStart(4, '0')}.mp4`;

describe('evidence', () => {
  it('shows a list of 200 links as whole clickable links, as many as fit, then "and N more"', () => {
    const links = Array.from({ length: 200 }, (_, n) => url(n));
    const text = formatEvidence(links);
    expect(text.length).toBeLessThanOrEqual(1024);
    const lines = text.split('\n');
    const shown = lines.slice(0, -1);
    expect(shown.length).toBeGreaterThan(10);
    expect(shown).toEqual(links.slice(0, shown.length));
    expect(lines.at(-1)).toBe(`and ${200 - shown.length} more`);
  });

  it('labels the links of an object by their keys, lists included, and shows one address once', () => {
    expect(formatEvidence({ video: url(1), screenshots: [url(2), url(3)], mirror: url(1), note: null })).toBe(
      [`video: ${url(1)}`, `screenshots: ${url(2)}`, `screenshots: ${url(3)}`].join('\n'),
    );
  });

  it('keeps short code for anything that is not links only', () => {
    expect(formatEvidence([url(1), 'see ticket 42'])).toMatch(/^`` \[/);
    expect(formatEvidence([1, 2, 3])).toBe('`` [1,2,3] ``');
    expect(formatEvidence({ clips: [url(1)], chatLog: true })).toMatch(/^`` \{/);
    expect(formatEvidence(['javascript:alert(1)', 'ftp://example.test/x'])).toMatch(/^`` \[/);
  });

  it('renders a case with 200 links as a message Discord accepts', () => {
    const sample = SAMPLE_DELIVERIES['case.created'];
    const envelope = {
      ...sample,
      data: { case: { ...sample.data.case, evidence: Array.from({ length: 200 }, (_, n) => url(n)) } },
    };
    const payload = renderDelivery(classifyDelivery(envelope), {});
    const field = payload.embeds[0]?.fields?.find((candidate) => candidate.name === 'Evidence');
    expect(field?.value).toMatch(/and \d+ more$/);
    expect(validateDiscordRequest('POST', '/api/v10/channels/1234567890123456789/messages', payload)).toEqual([]);
  });
});
