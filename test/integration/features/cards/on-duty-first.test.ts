import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CardRecords, type ModcallCard } from '../../../../src/features/cards/card-records.js';
import { ModcallEscalator } from '../../../../src/features/cards/modcall-escalator.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { recordingPoster } from '../../../helpers/recording-poster.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

/** The escalator's first step for a card that pinged the staff on shift: its role, once, when its time comes. */
describe("the role's ping after the staff on shift", () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;
  let escalator: ModcallEscalator | undefined;

  beforeEach(async () => {
    dir = makeTempDir();
    store = await openStore(`sqlite://${dir.path}/bot.sqlite`, Date.now);
  });

  afterEach(async () => {
    await escalator?.stop();
    escalator = undefined;
    await store.close();
    dir.remove();
  });

  const card = (guildId: string, postedAt: number): ModcallCard => ({
    guildId,
    channelId: `modcalls-${guildId}`,
    messageId: `card-${guildId}`,
    server: '4821337',
    caller: { robloxId: '9', name: 'caller' },
    calls: [{ deliveryId: `call-${guildId}`, at: postedAt }],
    postedAt,
    pingRoleId: `moderators-${guildId}`,
    claimedBy: null,
    claimedAt: null,
    resolvedBy: null,
    resolvedAt: null,
    escalatedAt: null,
    pingedOnDuty: [`staff-${guildId}`],
  });

  it('comes role-after minutes after the card, once; at once for a server that turned on-duty-first off', async () => {
    const time = new ManualTime();
    const cards = new CardRecords(store.records);
    await cards.saveOnDutyFirst('g1', { roleAfterMinutes: 2 });
    for (const guildId of ['g1', 'g2'])
      await cards.updateModcall(guildId, `card-${guildId}`, () => card(guildId, time.now()));
    const poster = recordingPoster();
    escalator = new ModcallEscalator({
      records: cards,
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
