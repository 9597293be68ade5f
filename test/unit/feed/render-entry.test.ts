import { describe, expect, it } from 'vitest';

import { renderEntry } from '../../../src/feed/render-entry.js';
import { SAMPLE_DELIVERIES } from '../../fixtures/deliveries.js';

describe('rendering a stored delivery', () => {
  it('classifies the body once, here: its own embed, and the route’s ping', () => {
    const payload = renderEntry(
      { deliveryId: 'd1', event: 'modcall', rawBody: JSON.stringify(SAMPLE_DELIVERIES.modcall) },
      { channelId: '300000000000000001', mentionRoleId: '400000000000000001' },
    );
    expect(payload.embeds[0]?.title).toBe('Modcall');
    expect(payload.allowed_mentions).toEqual({ parse: [], roles: ['400000000000000001'] });
  });

  it('shows a stored body that is not a delivery envelope (a record edited by hand) plainly, never throws', () => {
    for (const rawBody of ['not json', '[1,2]', '{"event":"modcall"}']) {
      const payload = renderEntry({ deliveryId: 'd2', event: 'modcall', rawBody }, { channelId: '300000000000000001' });
      expect(payload.embeds[0]?.title).toBe('Unexpected data · modcall');
    }
  });
});
