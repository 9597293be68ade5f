import { describe, expect, it } from 'vitest';

import { writtenFormOf, type OutgoingPost } from '../../../src/feed/outgoing-message.js';
import { parseWrittenPost } from '../../../src/feed/written-message.js';

describe('a post written down', () => {
  it("keeps the role a card pings later apart from its allowed_mentions, so a resend's card still has it", () => {
    const payload = {
      content: '<@500000000000000001>',
      embeds: [{ title: 'Modcall' }],
      allowed_mentions: { parse: [], users: ['500000000000000001'] },
    };
    const outgoing = {
      kind: 'post',
      entries: [],
      rendered: [{ payload, deferredRoleId: '400000000000000001' }],
      body: { ...payload, nonce: 'n-1', enforce_nonce: true },
      writtenAt: 1_000,
    } as unknown as OutgoingPost;

    const written = parseWrittenPost(writtenFormOf(outgoing), 'n-1', 1);
    expect(written?.parts).toEqual([{ payload, deferredRoleId: '400000000000000001' }]);
    expect(written?.body.allowed_mentions).toEqual({ parse: [], users: ['500000000000000001'] });
  });
});
