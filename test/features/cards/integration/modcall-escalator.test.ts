import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CardDocuments } from '../../../../src/features/cards/card-documents.js';
import type { ModcallCard } from '../../../../src/features/cards/modcall-card.js';
import { ModcallEscalator } from '../../../../src/features/cards/modcall-escalator.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import type { DocumentStore } from '../../../../src/store/documents.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { modcallCard } from '../../../fixtures/modcall-cards.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { failReadsOf } from '../../../helpers/failing-documents.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { recordingPoster } from '../../../helpers/recording-poster.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

/** An open card of the guild, posted at `postedAt`, pinging nobody unless `more` says. */
const openCard = (guildId: string, postedAt: number, more: Partial<ModcallCard> = {}): ModcallCard =>
  modcallCard({
    guildId,
    channelId: `modcalls-${guildId}`,
    messageId: `card-${guildId}`,
    server: '4821337',
    postedAt,
    calls: [{ deliveryId: `call-${guildId}`, at: postedAt }],
    ...more,
  });

/**
 * The escalator's timer job on a store: when the store fails under it (logged, the other cards go on, retried
 * next check), and the role's ping that follows the staff on shift.
 */
describe('the modcall escalator on a store', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;
  let escalator: ModcallEscalator | undefined;

  beforeEach(async () => {
    dir = makeTempDir();
    store = await openStore(`sqlite://${dir.path}/bot.sqlite`, STORE_MODULES, Date.now);
  });

  afterEach(async () => {
    await escalator?.stop();
    escalator = undefined;
    await store.close();
    dir.remove();
  });

  it("a card whose server's settings cannot be read is logged and retried; the other card escalates meanwhile", async () => {
    const time = new ManualTime();
    const logs = captureLogs();
    const cards = new CardDocuments(store.documents);
    for (const guildId of ['g1', 'g2']) {
      await cards.updateModcall(guildId, `card-${guildId}`, () => openCard(guildId, time.now()));
      await cards.saveEscalation(guildId, { afterMinutes: 1, roleId: `leads-${guildId}` });
    }
    // The first read of a server's escalation fails, whichever server comes first.
    let failOnce = true;
    const records = failReadsOf(store.documents, 'modcall_escalation', () => {
      const fail = failOnce;
      failOnce = false;
      return fail;
    });
    const poster = recordingPoster();
    escalator = new ModcallEscalator({
      documents: new CardDocuments(records),
      poster,
      clock: time.now,
      timers: time,
      logger: logs.logger,
      checkEveryMs: 1_000,
      minuteMs: 1_000,
      // Backing off no longer than a check: tried again at the next.
      backoff: { baseMs: 1_000, capMs: 1_000 },
    });
    escalator.start();
    const settle = () => escalator!.settled();

    await time.advance(1_000, settle);
    expect(records.failures).toBe(1);
    expect(poster.posts.map((post) => post.channelId)).toEqual(['modcalls-g2']);
    expect(poster.posts[0]?.body.content).toContain('<@&leads-g2>');
    expect(logs.text()).toContain('modcall escalation check failed; this card backs off, the others go on');
    expect(logs.text()).toContain('"guildId":"g1"');

    await time.advance(1_000, settle);
    expect(poster.posts.map((post) => post.channelId)).toEqual(['modcalls-g2', 'modcalls-g1']);
    await time.advance(5_000, settle);
    expect(poster.posts).toHaveLength(2);
  });

  it("escalates a server's card on time behind a hundred cards of a server whose settings cannot be read: those back off, and escalate once readable", async () => {
    const time = new ManualTime();
    const logs = captureLogs();
    const cards = new CardDocuments(store.documents);
    // A hundred cards (a whole read) of a server whose settings fail to read, older than the healthy server's card.
    for (let i = 0; i < 100; i += 1) {
      await cards.updateModcall('bad', `card-bad-${i}`, () =>
        openCard('bad', time.now(), { messageId: `card-bad-${i}`, caller: { robloxId: `9${i}`, name: 'caller' } }),
      );
    }
    await cards.updateModcall('good', 'card-good', () => openCard('good', time.now() + 500));
    for (const guildId of ['bad', 'good'])
      await cards.saveEscalation(guildId, { afterMinutes: 1, roleId: `leads-${guildId}` });
    let badReadable = false;
    const records = failReadsOf(store.documents, 'modcall_escalation', (key) => key === 'bad' && !badReadable);
    const poster = recordingPoster();
    let backoffs = 0;
    escalator = new ModcallEscalator({
      documents: new CardDocuments(records),
      poster,
      clock: time.now,
      timers: time,
      logger: logs.logger,
      checkEveryMs: 1_000,
      minuteMs: 1_000,
      backoff: { baseMs: 10_000, capMs: 20_000 },
      onBackoff: () => (backoffs += 1),
    });
    escalator.start();
    const settle = () => escalator!.settled();

    // The healthy server's card escalates a minute (here a second) after it was posted, as if the others were not there.
    await time.advance(2_000, settle);
    expect(poster.posts.map((post) => post.channelId)).toEqual(['modcalls-good']);
    expect(records.failures).toBe(100);
    expect(backoffs).toBe(100);
    // Backing off (5 to 10 s): not looked at again at each check meanwhile.
    await time.advance(3_000, settle);
    expect(records.failures).toBe(100);
    const [stored] = (await store.documents.list('modcall_card')).filter(({ key }) => key === 'bad:card-bad-0');
    expect(stored?.value).toMatchObject({ failures: 1 });

    // Its settings readable again, each card escalates at its retry, and its failures are forgotten.
    badReadable = true;
    await time.advance(10_000, settle);
    expect(poster.posts.filter((post) => post.channelId === 'modcalls-bad')).toHaveLength(100);
    expect(await cards.modcall('bad', 'card-bad-0')).not.toHaveProperty('failures');
    expect(poster.posts.filter((post) => post.channelId === 'modcalls-good')).toHaveLength(1);
  });

  it('a stored card it cannot read is logged and dropped; the cards due after it still escalate', async () => {
    const time = new ManualTime();
    const logs = captureLogs();
    const cards = new CardDocuments(store.documents);
    // Due first (the earliest time), and not a card: written by hand, or damaged.
    await store.documents.update(
      'modcall_card',
      'g0:card-g0',
      () => ({ guildId: 'g0' }),
      () => time.now() - 1,
    );
    await cards.updateModcall('g1', 'card-g1', () => openCard('g1', time.now()));
    await cards.saveEscalation('g1', { afterMinutes: 1, roleId: 'leads-g1' });
    const poster = recordingPoster();
    escalator = new ModcallEscalator({
      documents: cards,
      poster,
      clock: time.now,
      timers: time,
      logger: logs.logger,
      checkEveryMs: 1_000,
      minuteMs: 1_000,
    });
    escalator.start();

    await time.advance(2_000, () => escalator!.settled());
    expect(poster.posts.map((post) => post.channelId)).toEqual(['modcalls-g1']);
    expect(logs.text()).toContain('a stored modcall card could not be read; it was dropped, with its escalation');
    expect(logs.text()).toContain('g0:card-g0');
    expect(await store.documents.get('modcall_card', 'g0:card-g0')).toBeUndefined();
  });

  // The escalator's first step for a card that pinged the staff on shift: its role, once, when its time comes.
  it('comes role-after minutes after the card, once; at once for a server that turned on-duty-first off', async () => {
    const time = new ManualTime();
    const cards = new CardDocuments(store.documents);
    await cards.saveOnDutyFirst('g1', { roleAfterMinutes: 2 });
    for (const guildId of ['g1', 'g2'])
      await cards.updateModcall(guildId, `card-${guildId}`, () =>
        openCard(guildId, time.now(), { pingRoleId: `moderators-${guildId}`, pingedOnDuty: [`staff-${guildId}`] }),
      );
    const poster = recordingPoster();
    escalator = new ModcallEscalator({
      documents: cards,
      poster,
      clock: time.now,
      timers: time,
      logger: captureLogs().logger,
      checkEveryMs: 1_000,
      minuteMs: 1_000,
    });
    escalator.start();
    const settle = () => escalator!.settled();

    // g2 turned on-duty-first off after its card pinged the staff on shift: its role is pinged now.
    await time.advance(1_000, settle);
    expect(poster.posts.map((post) => post.body.content)).toEqual([
      '<@&moderators-g2> Modcall from caller unclaimed by the staff on shift for 1 min.',
    ]);
    await time.advance(1_000, settle);
    expect(poster.posts).toHaveLength(2);
    expect(poster.posts[1]?.body.content).toBe(
      '<@&moderators-g1> Modcall from caller unclaimed by the staff on shift for 2 min.',
    );
    expect(poster.posts[1]?.body.allowed_mentions).toEqual({
      parse: [],
      roles: ['moderators-g1'],
      replied_user: false,
    });
    // Once each, however long the cards stay unclaimed.
    await time.advance(5_000, settle);
    expect(poster.posts).toHaveLength(2);
  });
});

/** The escalator over a store holding many cards: it reads only the due ones, and forgets cards by deleting them. */
describe('the modcall escalator over many stored cards', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;

  beforeEach(async () => {
    dir = makeTempDir();
    store = await openStore(`sqlite://${dir.path}/bot.sqlite`, STORE_MODULES, Date.now);
  });

  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  const HOUR = 60 * 60 * 1000;

  const card = (guildId: string, messageId: string, postedAt: number, claimedBy: string | null): ModcallCard =>
    modcallCard({
      guildId,
      channelId: `modcalls-${guildId}`,
      messageId,
      server: '4821337',
      postedAt,
      caller: { robloxId: messageId, name: 'caller' },
      claimedBy,
      claimedAt: claimedBy === null ? null : postedAt,
    });

  /** The store's records, counting the modcall cards each read returns. */
  const countingCardReads = (records: DocumentStore) => {
    const counted = { read: 0 };
    const count = (kind: string, found: number) => {
      if (kind === 'modcall_card') counted.read += found;
    };
    const wrapper: DocumentStore = {
      get: async (kind, key) => {
        const value = await records.get(kind, key);
        count(kind, value === undefined ? 0 : 1);
        return value;
      },
      update: (kind, key, change, timeOf) => records.update(kind, key, change, timeOf),
      put: (kind, documents) => records.put(kind, documents),
      getAll: async (kind, keys) => {
        const found = await records.getAll(kind, keys);
        count(kind, found.size);
        return found;
      },
      delete: (kind, key) => records.delete(kind, key),
      list: async (kind) => {
        const found = await records.list(kind);
        count(kind, found.length);
        return found;
      },
      listDue: async (kind, until, limit) => {
        const found = await records.listDue(kind, until, limit);
        count(kind, found.length);
        return found;
      },
      sweepBefore: (kind, before, limit) => records.sweepBefore(kind, before, limit),
      kinds: () => records.kinds(),
    };
    return { records: wrapper, counted };
  };

  const startEscalator = (records: DocumentStore, time: ManualTime, poster = recordingPoster()) => ({
    poster,
    escalator: new ModcallEscalator({
      documents: new CardDocuments(records),
      poster,
      clock: time.now,
      timers: time,
      logger: captureLogs().logger,
      minuteMs: 1_000,
    }),
  });

  it('escalates the one due card among hundreds claimed, reading only that one', async () => {
    const time = new ManualTime();
    const cards = new CardDocuments(store.documents);
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        cards.updateModcall('g1', `claimed-${i}`, () => card('g1', `claimed-${i}`, time.now(), 'mod')),
      ),
    );
    await cards.updateModcall('g2', 'open', () => card('g2', 'open', time.now(), null));
    await cards.saveEscalation('g2', { afterMinutes: 1, roleId: 'leads-g2' });
    const { records, counted } = countingCardReads(store.documents);
    const { escalator, poster } = startEscalator(records, time);

    await time.advance(1_000, () => Promise.resolve());
    await escalator.check();
    expect(poster.posts.map((post) => post.channelId)).toEqual(['modcalls-g2']);
    expect(counted.read).toBe(1);

    // Escalated, it is not due again until it is forgotten; the claimed ones were never due.
    await time.advance(5_000, () => Promise.resolve());
    await escalator.check();
    expect(poster.posts).toHaveLength(1);
    expect(counted.read).toBe(1);
  });

  it('gives a new card its escalation time, escalates it then, and deletes cards a day old', async () => {
    const time = new ManualTime();
    const cards = new CardDocuments(store.documents);
    await cards.saveEscalation('g1', { afterMinutes: 3, roleId: 'leads' });
    await cards.updateModcall('g1', 'open', () => card('g1', 'open', time.now(), null));
    await cards.updateModcall('g1', 'claimed', () => card('g1', 'claimed', time.now(), 'mod'));
    const { records, counted } = countingCardReads(store.documents);
    const { escalator, poster } = startEscalator(records, time);

    // First seen: due again at 3 "minutes", not before.
    await time.advance(1_000, () => Promise.resolve());
    await escalator.check();
    expect(counted.read).toBe(1);
    await time.advance(1_000, () => Promise.resolve());
    await escalator.check();
    expect(counted.read).toBe(1);
    expect(poster.posts).toEqual([]);
    await time.advance(1_000, () => Promise.resolve());
    await escalator.check();
    expect(poster.posts.map((post) => post.body.content)).toEqual([
      '<@&leads> Modcall from caller unclaimed for 3 min.',
    ]);

    await time.advance(24 * HOUR, () => Promise.resolve());
    await escalator.check();
    expect(await cards.modcall('g1', 'open')).toBeUndefined();
    expect(await store.documents.list('modcall_card')).toEqual([]);
  });

  it('escalates nothing where escalation is off, and reads such a card only when it is new and when it is forgotten', async () => {
    const time = new ManualTime();
    const cards = new CardDocuments(store.documents);
    await cards.updateModcall('g1', 'open', () => card('g1', 'open', time.now(), null));
    const { records, counted } = countingCardReads(store.documents);
    const { escalator, poster } = startEscalator(records, time);

    for (let hour = 0; hour < 23; hour += 1) {
      await time.advance(HOUR, () => Promise.resolve());
      await escalator.check();
    }
    expect(counted.read).toBe(1);
    await time.advance(2 * HOUR, () => Promise.resolve());
    await escalator.check();
    expect(counted.read).toBe(2);
    expect(poster.posts).toEqual([]);
    expect(await store.documents.list('modcall_card')).toEqual([]);
  });
});
