import { describe, expect, it } from 'vitest';

import { ShownParts } from '../../../src/features/threads/shown-parts.js';

const G = '100000000000000001';
const part = (sessionId: number, name: string) => ({ server: '4821337', sessionId, part: name });

describe("what a session thread's messages show", () => {
  it('knows what each part shows, per guild, and forgets a session or a guild whole', () => {
    const shown = new ShownParts();
    expect(shown.shows(G, part(1, 'log'), 'a')).toBe(false);
    shown.remember(G, part(1, 'log'), 'a');
    shown.remember(G, part(1, 'report'), 'r');
    shown.remember(G, part(2, 'log'), 'b');
    expect(shown.shows(G, part(1, 'log'), 'a')).toBe(true);
    expect(shown.shows(G, part(1, 'log'), 'changed')).toBe(false);
    shown.forgetSession(G, { server: '4821337', sessionId: 1 });
    expect(shown.shows(G, part(1, 'log'), 'a')).toBe(false);
    expect(shown.shows(G, part(2, 'log'), 'b')).toBe(true);
    shown.forgetSession(G, { server: '4821337', sessionId: 2 });
    shown.forgetSession('999', { server: '4821337', sessionId: 2 });
    expect(shown.shows(G, part(2, 'log'), 'b')).toBe(false);
    shown.remember(G, part(3, 'log'), 'c');
    shown.forgetGuild(G);
    expect(shown.shows(G, part(3, 'log'), 'c')).toBe(false);
  });
});
