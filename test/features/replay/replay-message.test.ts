import { describe, expect, it } from 'vitest';

import { composeReplayMessage, REPLAYED_MARK } from '../../../src/features/replay/replay-message.js';
import { SAMPLE_DELIVERIES } from '../../fixtures/deliveries.js';

describe('a replayed message', () => {
  it('marks every embed Replayed, pings nobody, and is named by its run and events', () => {
    const delivery = SAMPLE_DELIVERIES['case.created'];
    const source = (channelId: string | null, n: number) => ({
      hookId: 'h1',
      guildId: '100000000000000001',
      deliveryId: `${delivery.id}-${n}`,
      event: delivery.event,
      rawBody: JSON.stringify({ ...delivery, id: `${delivery.id}-${n}` }),
      receivedAt: 0,
      seq: n,
      channelId,
      muted: channelId === null,
    });
    const message = composeReplayMessage('run-1', [source('300000000000000001', 1), source(null, 2)]);
    expect(message.events.map((event) => event.seq)).toEqual([1, 2]);
    expect(message.body.allowed_mentions).toEqual({ parse: [] });
    for (const embed of message.body.embeds ?? []) expect(embed.footer?.text?.startsWith(REPLAYED_MARK)).toBe(true);
    expect(composeReplayMessage('run-1', [source('300000000000000001', 1)]).nonce).not.toBe(
      composeReplayMessage('run-2', [source('300000000000000001', 1)]).nonce,
    );
  });
});
