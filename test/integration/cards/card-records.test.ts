import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CardRecords } from '../../../src/cards/card-records.js';
import { openStore, type Store } from '../../../src/store/open-store.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

describe('card records', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;
  let cards: CardRecords;

  beforeEach(async () => {
    dir = makeTempDir();
    store = await openStore(`sqlite://${dir.path}/cards.sqlite`, Date.now);
    cards = new CardRecords(store.records);
  });

  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  const card = (postedAt: number) => ({
    channelId: 'c1',
    messageId: `m${postedAt}`,
    embedIndex: 0,
    embedCount: 1,
    postedAt,
  });

  it('forgets cards (and their message embeds) posted before the cut, and keeps the newer ones', async () => {
    await cards.saveSubject('g1', 'case:1:1', card(1_000));
    await cards.saveMessageEmbeds('c1', 'm1000', [{ title: 'old' }], 1_000);
    await cards.saveSubject('g1', 'case:1:2', card(5_000));
    await cards.saveMessageEmbeds('c1', 'm5000', [{ title: 'new' }], 5_000);

    expect(await cards.sweep(2_000)).toBe(1);
    expect(await cards.subject('g1', 'case:1:1')).toBeUndefined();
    expect(await cards.messageEmbeds('c1', 'm1000')).toBeUndefined();
    expect(await cards.subject('g1', 'case:1:2')).toEqual(card(5_000));
    expect(await cards.messageEmbeds('c1', 'm5000')).toEqual([{ title: 'new' }]);
  });

  it('claims a modcall once, whoever comes second', async () => {
    const base = {
      guildId: 'g1',
      channelId: 'c1',
      messageId: 'm1',
      server: '1',
      caller: { robloxId: '9', name: 'caller' },
      calls: [{ deliveryId: 'd1', at: 1 }],
      postedAt: 1,
      pingRoleId: null,
      claimedBy: null,
      claimedAt: null,
      resolvedBy: null,
      resolvedAt: null,
      escalatedAt: null,
    };
    await cards.updateModcall('g1', 'm1', () => base);
    const claim = (userId: string) =>
      cards.updateModcall('g1', 'm1', (current) =>
        current && current.claimedBy === null ? { ...current, claimedBy: userId, claimedAt: 2 } : current,
      );
    const [first, second] = await Promise.all([claim('a'), claim('b')]);
    expect(first?.claimedBy).toBe('a');
    expect(second?.claimedBy).toBe('a');
  });
});
