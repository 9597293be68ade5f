import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { DigestJob } from '../../../../src/features/digest/digest-job.js';
import { digestModule } from '../../../../src/features/digest/store/digest-module.js';
import { nextDigestAt, weekEndingAt } from '../../../../src/features/digest/weekly-schedule.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { recordingPoster } from '../../../helpers/recording-poster.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

const GUILD = '222222222222222222';
const CHANNEL = '300000000000000001';
const HOUR = 3_600_000;
const MONDAY = 1;

/** A shift that began at `startedAt` and lasted `hours`, as the service tells it. */
function shiftEnded(shiftId: number, memberId: string, startedAt: number, hours: number) {
  const envelope = {
    id: `shift-${shiftId}`,
    event: 'shift.ended',
    server: '4821337',
    at: startedAt + hours * HOUR,
    data: {
      shift: {
        id: shiftId,
        discordId: memberId,
        name: `Member ${memberId}`,
        robloxId: `9${shiftId}`,
        startedAt,
        endedAt: startedAt + hours * HOUR,
        seconds: hours * 3600,
      },
    },
  };
  return {
    hookId: 'hook-digest-weeks',
    guildId: GUILD,
    deliveryId: envelope.id,
    event: envelope.event,
    server: envelope.server,
    rawBody: JSON.stringify(envelope),
    receivedAt: envelope.at,
  };
}

/**
 * The weekly digest's week across a change of offset: it runs from the previous digest's hour on the zone's wall
 * clock to this one (167 hours in spring, 169 in autumn), so a shift counts in one week's digest, never in two and
 * never in none.
 */
describe("the weekly digest's week across a change of offset", () => {
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

  /** Posts the digests due at each of `hours` (a minute after it), in turn; returns each digest's shift hours. */
  async function digestsAt(timeZone: string, hour: number, hours: number[]): Promise<Array<string | undefined>> {
    const time = new ManualTime(hours[0]);
    const poster = recordingPoster();
    const job = new DigestJob({
      digests: store.of(digestModule),
      record: store.of(recordModule),
      charts: { draw: () => Promise.resolve(undefined) },
      poster,
      findPosted: () => Promise.resolve(undefined),
      guildOf: () => undefined,
      clock: time.now,
      timers: time,
      logger: captureLogs().logger,
    });
    await store.of(digestModule).setSchedule({
      guildId: GUILD,
      channelId: CHANNEL,
      weekday: MONDAY,
      hour,
      timeZone,
      nextAt: hours[0] ?? 0,
    });
    for (const at of hours) {
      await time.advance(at + 60_000 - time.now(), () => Promise.resolve());
      await job.check();
    }
    return poster.posts.map(
      (post) => post.body.embeds[0]?.fields?.find((field) => field.name === 'Hours on shift')?.value,
    );
  }

  it('counts a shift in the hour before the previous digest in that week only (spring, America/New_York)', async () => {
    // New York moves to summer time on Sunday 8 March 2026: Monday 18:00 is 23:00 UTC before, 22:00 UTC after.
    const previous = Date.UTC(2026, 2, 2, 23);
    const digestHour = Date.UTC(2026, 2, 9, 22);
    expect(nextDigestAt(MONDAY, 18, 'America/New_York', previous)).toBe(digestHour);
    // 17:30 in New York on Monday 2 March: the week before the previous digest's.
    await store.deliveries.accept(shiftEnded(1, '500000000000000001', Date.UTC(2026, 2, 2, 22, 30), 1));
    // Tuesday: this week.
    await store.deliveries.accept(shiftEnded(2, '500000000000000002', Date.UTC(2026, 2, 3, 15), 2));
    expect((await store.of(recordModule).recordPending(10)).recorded).toBe(2);

    const digests = await digestsAt('America/New_York', 18, [previous, digestHour]);
    expect(digests).toEqual([
      '**1.** <@500000000000000001>: 1.0 h\n1 on shift, 1.0 h in all',
      '**1.** <@500000000000000002>: 2.0 h\n1 on shift, 2.0 h in all',
    ]);
  });

  it('counts a shift in the hour after the previous digest in the next week (autumn, Europe/London)', async () => {
    // London moves back to winter time on Sunday 25 October 2026: Monday 09:00 is 08:00 UTC before, 09:00 after.
    const previous = Date.UTC(2026, 9, 19, 8);
    const digestHour = Date.UTC(2026, 9, 26, 9);
    expect(nextDigestAt(MONDAY, 9, 'Europe/London', previous)).toBe(digestHour);
    // 09:30 in London on Monday 19 October: the first hour of the week after the previous digest.
    await store.deliveries.accept(shiftEnded(3, '500000000000000003', Date.UTC(2026, 9, 19, 8, 30), 1));
    expect((await store.of(recordModule).recordPending(10)).recorded).toBe(1);

    const digests = await digestsAt('Europe/London', 9, [previous, digestHour]);
    expect(digests).toEqual(['Nobody was on shift.', '**1.** <@500000000000000003>: 1.0 h\n1 on shift, 1.0 h in all']);
  });

  it("is the zone's wall-clock week: 167 hours in spring, 169 in autumn, 168 otherwise", () => {
    const spring = weekEndingAt(Date.UTC(2026, 2, 9, 22), 18, 'America/New_York');
    expect(spring).toEqual({ from: Date.UTC(2026, 2, 2, 23), to: Date.UTC(2026, 2, 9, 22) });
    expect((spring.to - spring.from) / HOUR).toBe(167);
    const autumn = weekEndingAt(Date.UTC(2026, 9, 26, 9), 9, 'Europe/London');
    expect((autumn.to - autumn.from) / HOUR).toBe(169);
    const plain = weekEndingAt(Date.UTC(2026, 10, 30, 23), 18, 'America/New_York');
    expect((plain.to - plain.from) / HOUR).toBe(168);
    // A digest hour the spring change skips (02:00 on 28 March 2027 in Berlin came out at 03:00): its week begins
    // at the previous week's 02:00, where the last digest was, not an hour after it.
    const skipped = nextDigestAt(0, 2, 'Europe/Berlin', Date.UTC(2027, 2, 27));
    expect(weekEndingAt(skipped, 2, 'Europe/Berlin').from).toBe(Date.UTC(2027, 2, 21, 1));
  });
});
