import { describe, expect, it } from 'vitest';

import { httpAddressOf, readEvidence } from '../../../src/features/record/evidence-links.js';

describe("a case's evidence read back", () => {
  it('lists every text, number and truth at any depth with where it was, a link only for an http(s) address', () => {
    const read = readEvidence(
      JSON.stringify({
        clips: ['https://cdn.example.test/a.mp4', 'javascript:alert(1)'],
        seen: 2,
        live: true,
        none: null,
        by: { who: 'Ann' },
      }),
    );
    expect(read.items).toEqual([
      { path: 'clips[0]', text: 'https://cdn.example.test/a.mp4', href: 'https://cdn.example.test/a.mp4' },
      { path: 'clips[1]', text: 'javascript:alert(1)', href: undefined },
      { path: 'seen', text: '2', href: undefined },
      { path: 'live', text: 'true', href: undefined },
      { path: 'by.who', text: 'Ann', href: undefined },
    ]);
    expect(read.moreItems).toBe(false);
    expect(readEvidence(JSON.stringify('https://x.example.test/y')).items).toEqual([
      { path: '', text: 'https://x.example.test/y', href: 'https://x.example.test/y' },
    ]);
  });

  it('finds the addresses in evidence the record cut (no longer JSON), and says when there were more than it lists', () => {
    const cut = '{"a":"https://one.example.test/1","b":"https://two.example.test/2 and more';
    const read = readEvidence(cut);
    expect(read.value).toBeUndefined();
    expect(read.items.map((item) => item.href)).toEqual(['https://one.example.test/1', 'https://two.example.test/2']);
    const many = readEvidence(JSON.stringify(Array.from({ length: 500 }, (_, n) => `item ${n}`)));
    expect(many.moreItems).toBe(true);
    expect(many.items.length).toBeLessThan(500);
    const manyCut = readEvidence(`x ${Array.from({ length: 500 }, (_, n) => `https://e.example.test/${n}`).join(' ')}`);
    expect(manyCut.moreItems).toBe(true);
  });

  it('is no link unless the whole text is an absolute http(s) address', () => {
    expect(httpAddressOf('  https://ok.example.test/p  ')).toBe('https://ok.example.test/p');
    expect(httpAddressOf('http://[bad')).toBeUndefined();
    expect(httpAddressOf('data:text/html,x')).toBeUndefined();
    expect(httpAddressOf('/relative/path')).toBeUndefined();
  });
});
