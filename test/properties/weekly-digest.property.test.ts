import type { Guild } from 'discord.js';
import fc from 'fast-check';
import { expect, it } from 'vitest';

import { RUNTIME_TIMERS } from '../../src/base/timers.js';
import { describeDigest } from '../../src/features/digest/describe-digest.js';
import { DigestJob } from '../../src/features/digest/digest-job.js';
import { digestModule } from '../../src/features/digest/store/digest-module.js';
import type { Quota } from '../../src/features/digest/store/digests.js';
import { nextDigestAt } from '../../src/features/digest/weekly-schedule.js';
import { recordModule } from '../../src/features/record/store/record-module.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { recordingPoster } from '../helpers/recording-poster.js';
import { communityArb, DAY, MINUTE, scheduleArb, STAFF } from './community-events.js';
import { digestFacts, type Roles } from './digest-model.js';
import { assertProperty, describeOnEngines, playCommunity } from './play-community.js';
import { knownOf } from './record-model.js';

/*
 * The weekly digest as the digest job posts it (its week from the schedule, its facts from the record, quotas from
 * the members' roles) says the plain model's figures of the zone's wall-clock week, whatever the order and
 * repetition of the deliveries, posted at the first moment looked at.
 */

const CHANNEL = '300000000000000009';
const ROLES = ['600000000000000001', '600000000000000002'];

/** Zones with a change of daylight saving time in 2026, and those changes (and one zone without). */
const CHANGES: ReadonlyArray<[string, number]> = [
  ['Europe/Berlin', Date.UTC(2026, 2, 29, 1)],
  ['Europe/Berlin', Date.UTC(2026, 9, 25, 1)],
  ['America/New_York', Date.UTC(2026, 2, 8, 7)],
  ['America/New_York', Date.UTC(2026, 10, 1, 6)],
  ['Australia/Sydney', Date.UTC(2026, 3, 4, 16)],
  ['Australia/Sydney', Date.UTC(2026, 9, 3, 16)],
  ['UTC', Date.UTC(2026, 5, 1)],
];

/**
 * A digest's schedule whose week holds a change of time (or ends just before or after one): a day and an hour (not
 * between 1 and 3 at night, which a change may skip or repeat) in the zone, the end of the week it covers, and when
 * the digest job looks (on time, or over 15 minutes late).
 */
const scheduleOfDigest = fc
  .record({
    change: fc.constantFrom(...CHANGES),
    weekday: fc.integer({ min: 0, max: 6 }),
    hour: fc.constantFrom(0, 4, 9, 12, 18, 23),
    daysAfter: fc.integer({ min: -2, max: 7 }),
    lateMinutes: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 16, max: 600 })),
  })
  .map(({ change: [timeZone, at], weekday, hour, daysAfter, lateMinutes }) => {
    const weekEnd = nextDigestAt(weekday, hour, timeZone, at + daysAfter * DAY);
    return { timeZone, weekday, hour, weekEnd, now: weekEnd + lateMinutes * MINUTE };
  });

const quotaArb: fc.Arbitrary<Quota> = fc.record({
  roleId: fc.constantFrom(...ROLES),
  hours: fc.integer({ min: 0, max: 12 }),
  per: fc.constantFrom('week' as const, 'month' as const),
});

const digestCase = scheduleOfDigest.chain((schedule) =>
  // The community's events from nine days before the week's end to a day after it.
  communityArb({ from: schedule.weekEnd - 9 * DAY, minutes: (10 * DAY) / MINUTE }).chain((community) =>
    fc.record({
      schedule: fc.constant(schedule),
      community: fc.constant(community),
      steps: scheduleArb(community, 1),
      quotas: fc.uniqueArray(quotaArb, { selector: (quota) => quota.roleId, maxLength: 2 }),
      roles: fc.tuple(...STAFF.map(() => fc.subarray(ROLES))),
    }),
  ),
);

/** Runs per engine in `npm test`: each plays about 40 deliveries and posts one digest. */
const RUNS = { SQLite: 40, PostgreSQL: 8 } as const;

/** The guild as the digest sees it: each member's roles, looked up one by one. */
function guildWith(roles: Roles): Guild {
  const members = {
    fetch: (memberId: string) => Promise.resolve({ roles: { cache: new Set(roles.get(memberId) ?? []) } }),
  };
  return { members } as unknown as Guild;
}

describeOnEngines('the weekly digest, whatever the order and repetition of deliveries', (engine) => {
  it("says the model's figures of the zone's wall-clock week, across changes of daylight saving time", async () => {
    await assertProperty(
      fc.asyncProperty(digestCase, async ({ schedule, community, steps, quotas, roles: rolesOf }) => {
        const store = engine.store();
        const guildId = engine.nextGuild();
        const { timeZone, weekday, hour, weekEnd, now } = schedule;
        const roles: Roles = new Map(STAFF.map((member, index) => [member.id, rolesOf[index] ?? []]));
        for (const quota of quotas) await store.of(digestModule).setQuota(guildId, quota);
        await store
          .of(digestModule)
          .setSchedule({ guildId, channelId: CHANNEL, weekday, hour, timeZone, nextAt: weekEnd });
        const poster = recordingPoster();
        const job = new DigestJob({
          digests: store.of(digestModule),
          record: store.of(recordModule),
          charts: { draw: () => Promise.resolve(undefined) },
          poster,
          findPosted: () => Promise.resolve(undefined),
          guildOf: () => guildWith(roles),
          clock: () => now,
          timers: RUNTIME_TIMERS,
          logger: captureLogs('warn').logger,
        });
        try {
          // The digest goes out once, at the first look: what the record knew then is what it says.
          let posted = false;
          await playCommunity(store, guildId, community, steps, async (seen) => {
            if (posted) return;
            posted = true;
            await job.check();
            const expected = describeDigest(digestFacts(knownOf(community, seen), schedule, quotas, roles), false);
            expect(poster.posts.map((post) => post.body.embeds)).toEqual([[expected]]);
          });
        } finally {
          // Else a later run's clock would find this guild's next week due.
          await store.of(digestModule).clearSchedule(guildId);
        }
      }),
      RUNS[engine.name as keyof typeof RUNS],
    );
  });
});
