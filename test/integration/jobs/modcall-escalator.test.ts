import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CardRecords, type ModcallCard } from '../../../src/cards/card-records.js';
import { ModcallEscalator } from '../../../src/cards/modcall-escalator.js';
import { openStore, type Store } from '../../../src/store/open-store.js';
import { captureLogs } from '../../helpers/capture-logs.js';
import { failReadsOf } from '../../helpers/failing-records.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { recordingPoster } from '../../helpers/recording-poster.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

/** The escalator's timer job when the store fails under it: logged, the other cards go on, retried next check. */
describe('the modcall escalator on a failing store', () => {
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
    pingRoleId: null,
    claimedBy: null,
    claimedAt: null,
    resolvedBy: null,
    resolvedAt: null,
    escalatedAt: null,
  });

  it("a card whose server's settings cannot be read is logged and retried; the other card escalates meanwhile", async () => {
    const time = new ManualTime();
    const logs = captureLogs();
    const cards = new CardRecords(store.records);
    for (const guildId of ['g1', 'g2']) {
      await cards.updateModcall(guildId, `card-${guildId}`, () => card(guildId, time.now()));
      await cards.saveEscalation(guildId, { afterMinutes: 1, roleId: `leads-${guildId}` });
    }
    // The first read of a server's escalation fails, whichever server comes first.
    let failOnce = true;
    const records = failReadsOf(store.records, 'modcall_escalation', () => {
      const fail = failOnce;
      failOnce = false;
      return fail;
    });
    const poster = recordingPoster();
    escalator = new ModcallEscalator({
      records: new CardRecords(records),
      poster,
      clock: time.now,
      timers: time,
      logger: logs.logger,
      checkEveryMs: 1_000,
      minuteMs: 1_000,
    });
    escalator.start();
    const settle = () => escalator!.settled();

    await time.advance(1_000, settle);
    expect(records.failures).toBe(1);
    expect(poster.posts.map((post) => post.channelId)).toEqual(['modcalls-g2']);
    expect(poster.posts[0]?.body.content).toContain('<@&leads-g2>');
    expect(logs.text()).toContain('modcall escalation check failed; retried at the next check');
    expect(logs.text()).toContain('"guildId":"g1"');

    await time.advance(1_000, settle);
    expect(poster.posts.map((post) => post.channelId)).toEqual(['modcalls-g2', 'modcalls-g1']);
    await time.advance(5_000, settle);
    expect(poster.posts).toHaveLength(2);
  });
});
