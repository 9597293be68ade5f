import { describe, expect, it } from 'vitest';

import { placementOf } from '../../../src/store/placement.js';

describe('placementOf', () => {
  it('keeps a delivery that an off rule covers as posted and muted, with its body for the replay window', () => {
    expect(placementOf('muted', undefined, 5)).toEqual({
      state: 'posted',
      channelId: null,
      parkKind: null,
      parkDetail: null,
      parkedAt: null,
      postedAt: 5,
      muted: true,
      keepsBody: true,
    });
  });

  it('parks a delivery no rule routes as unrouted, with no channel', () => {
    expect(placementOf(null, undefined, 5)).toMatchObject({
      state: 'parked',
      channelId: null,
      parkKind: 'unrouted',
      parkDetail: '',
      parkedAt: 5,
      muted: false,
      keepsBody: true,
    });
  });

  it('parks a delivery for a broken channel with what Discord said, and lets one for a working channel wait', () => {
    expect(placementOf({ channelId: 'c' }, 'Missing Access', 5)).toMatchObject({
      state: 'parked',
      channelId: 'c',
      parkKind: 'broken',
      parkDetail: 'Missing Access',
      parkedAt: 5,
    });
    const waiting = placementOf({ channelId: 'c', mentionRoleId: 'r' }, undefined, 5);
    expect(waiting).toMatchObject({ state: 'waiting', channelId: 'c', parkKind: null, parkedAt: null, muted: false });
  });
});
