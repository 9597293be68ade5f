import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CardDocuments } from '../../../../src/features/cards/card-documents.js';
import type { ModcallCard } from '../../../../src/features/cards/modcall-card.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { modcallCard } from '../../../fixtures/modcall-cards.js';
import { failSweepsOf } from '../../../helpers/failing-documents.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

describe('card records', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;
  let cards: CardDocuments;

  beforeEach(async () => {
    dir = makeTempDir();
    store = await openStore(`sqlite://${dir.path}/cards.sqlite`, STORE_MODULES, Date.now);
    cards = new CardDocuments(store.documents);
  });

  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  const modcall = (messageId: string, postedAt: number): ModcallCard =>
    modcallCard({ guildId: 'g1', channelId: 'c1', messageId, server: '1', postedAt });

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

  it("sweeps the other kinds when one kind's sweep fails, then fails with why", async () => {
    await cards.saveSubject('g1', 'case:1:1', card(1_000));
    await cards.saveMessageEmbeds('c1', 'm1000', [{ title: 'old' }], 1_000);
    await cards.saveFinalState('g1', 'case:1:1', { deliveryId: 'd1', event: 'case.voided', rawBody: '{}', at: 1_000 });
    await cards.saveLatestCall('g1', '1', 'caller', 'm1000', 1_000);
    const failing = new CardDocuments(failSweepsOf(store.documents, 'card'));

    await expect(failing.sweep(2_000)).rejects.toThrow("1 of the cards' kinds could not be swept");
    // The card itself is kept (its kind failed); its message, final state and caller went.
    expect(await cards.subject('g1', 'case:1:1')).toEqual(card(1_000));
    expect(await cards.messageEmbeds('c1', 'm1000')).toBeUndefined();
    expect(await cards.finalState('g1', 'case:1:1')).toBeUndefined();
    expect(await cards.latestCallOf('g1', '1', 'caller')).toBeUndefined();
    // The next sweep, the failure gone, takes the card.
    expect(await cards.sweep(2_000)).toBe(1);
  });

  const DAY = 24 * 60 * 60 * 1000;

  it('deletes a removed modcall card and an escalation turned off: no document is left behind', async () => {
    await cards.updateModcall('g1', 'm1', () => modcall('m1', 1));
    await cards.saveEscalation('g1', { afterMinutes: 5, roleId: 'leads' });
    expect(await cards.updateModcall('g1', 'm1', () => undefined)).toBeUndefined();
    await cards.saveEscalation('g1', null);
    expect(await cards.modcall('g1', 'm1')).toBeUndefined();
    expect(await store.documents.list('modcall_card')).toEqual([]);
    expect(await store.documents.list('modcall_escalation')).toEqual([]);
  });

  it("sweeps a caller's latest call with the cards 30 days after its card was posted, and keeps a newer one", async () => {
    const now = 100 * DAY;
    await cards.saveLatestCall('g1', '1', 'old-caller', 'm-old', now - 31 * DAY);
    await cards.saveLatestCall('g1', '1', 'new-caller', 'm-new', now - DAY);
    await cards.sweep(now - 30 * DAY);
    expect(await cards.latestCallOf('g1', '1', 'old-caller')).toBeUndefined();
    expect(await cards.latestCallOf('g1', '1', 'new-caller')).toBe('m-new');
    expect(await store.documents.list('modcall_caller')).toHaveLength(1);
  });

  it('sweeps more old cards than one slice holds, with their messages and final states', async () => {
    const old = 1_200;
    await Promise.all(
      Array.from({ length: old }, async (_, i) => {
        await cards.saveSubject('g1', `case:1:${i}`, { ...card(1_000), messageId: `m${i}` });
        await cards.saveMessageEmbeds('c1', `m${i}`, [{ title: `case ${i}` }], 1_000);
        await cards.saveFinalState('g1', `case:1:${i}`, {
          deliveryId: `d${i}`,
          event: 'case.voided',
          rawBody: '{}',
          at: 1_000,
        });
      }),
    );
    await cards.saveSubject('g1', 'case:1:new', card(5_000));
    expect(await cards.sweep(2_000)).toBe(old);
    expect(await store.documents.list('card')).toHaveLength(1);
    expect(await store.documents.list('card_message')).toEqual([]);
    expect(await store.documents.list('card_final')).toEqual([]);
  });

  it('claims a modcall once, whoever comes second', async () => {
    const base = modcallCard({
      guildId: 'g1',
      channelId: 'c1',
      messageId: 'm1',
      server: '1',
      postedAt: 1,
      calls: [{ deliveryId: 'd1', at: 1 }],
    });
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
