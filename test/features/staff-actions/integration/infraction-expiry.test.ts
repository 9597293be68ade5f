import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { UserFacingError } from '../../../../src/base/errors.js';
import { recordOf } from '../../../../src/features/record/index.js';
import { DEFAULT_STRIKE_DAYS, infractionExpiry } from '../../../../src/features/staff-actions/infractions.js';
import { readMemberHistory } from '../../../../src/features/staff-actions/member-history.js';
import { staffActionsModule } from '../../../../src/features/staff-actions/store/staff-actions-module.js';
import type {
  NewInfraction,
  StaffActionsStore,
} from '../../../../src/features/staff-actions/store/staff-actions-store.js';
import type { TimelineSource } from '../../../../src/features/staff-actions/timeline.js';
import type { Store } from '../../../../src/store/store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { ENGINES, openTestStore, type EngineDatabase } from './engines.js';

const GUILD = '222222222222222222';
const SAM = '500000000000000001';
const MIA = '500000000000000002';
const T0 = Date.UTC(2026, 10, 1, 12);
const DAY = 24 * 60 * 60 * 1000;

describe('when an infraction stops counting', () => {
  it("is a strike's 90 days by default, the days given otherwise, and never for a warning or termination", () => {
    expect(infractionExpiry('strike', null, T0)).toBe(T0 + DEFAULT_STRIKE_DAYS * DAY);
    expect(infractionExpiry('strike', 7, T0)).toBe(T0 + 7 * DAY);
    expect(infractionExpiry('suspension', 3, T0)).toBe(T0 + 3 * DAY);
    expect(infractionExpiry('warning', null, T0)).toBeNull();
    expect(infractionExpiry('termination', null, T0)).toBeNull();
  });

  it('refuses an expiry out of bounds, and one for a termination, in plain words', () => {
    expect(() => infractionExpiry('strike', 0, T0)).toThrow(
      new UserFacingError('expires is 1 to 3650 days. Nothing was recorded.'),
    );
    expect(() => infractionExpiry('strike', 3651, T0)).toThrow(UserFacingError);
    expect(() => infractionExpiry('termination', 30, T0)).toThrow(/A termination does not expire/);
  });
});

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`a member's history on ${engine.name}`, () => {
    let database: EngineDatabase;
    let store: Store;
    let staff: StaffActionsStore;
    const logs = captureLogs('warn');

    beforeEach(async () => {
      database = await engine.make();
      store = await openTestStore(database, { ms: T0 });
      staff = store.of(staffActionsModule);
    });

    afterEach(async () => {
      await store.close();
      await database.drop();
    });

    const give = (requestId: string, changes: Partial<NewInfraction>) =>
      staff.giveInfraction({
        guildId: GUILD,
        requestId,
        memberId: SAM,
        type: 'strike',
        reason: 'late to a session',
        evidence: null,
        givenBy: MIA,
        givenAt: T0,
        expiresAt: infractionExpiry(changes.type ?? 'strike', null, changes.givenAt ?? T0),
        ...changes,
      });
    const historyAt = (now: number, timeline: TimelineSource[] = []) =>
      readMemberHistory(
        { staffActions: staff, staffRecord: recordOf(store), timeline, logger: logs.logger },
        GUILD,
        SAM,
        now,
      );

    it('counts a strike until it expires, then keeps it marked expired', async () => {
      await give('i-1', {});
      await give('i-2', { type: 'warning', givenAt: T0 + DAY });
      const before = await historyAt(T0 + (DEFAULT_STRIKE_DAYS - 1) * DAY);
      expect(before.activeStrikes).toBe(1);
      expect(before.entries.map((entry) => entry.line)).toEqual([
        `**Warning #2** by <@${MIA}>: late to a session`,
        `**Strike #1** by <@${MIA}>: late to a session (until <t:${(T0 + DEFAULT_STRIKE_DAYS * DAY) / 1000}:d>)`,
      ]);
      const after = await historyAt(T0 + DEFAULT_STRIKE_DAYS * DAY);
      expect(after.activeStrikes).toBe(0);
      expect(after.entries[1]?.line).toBe(`**Strike #1** by <@${MIA}>: late to a session (expired)`);
    });

    it('keeps a voided strike struck through with who voided it and why, and counts it no more', async () => {
      await give('i-1', {});
      await staff.voidInfraction(GUILD, 1, { by: MIA, at: T0 + DAY, reason: 'the session was cancelled' });
      const history = await historyAt(T0 + 2 * DAY);
      expect(history.activeStrikes).toBe(0);
      expect(history.entries[0]?.line).toBe(
        `~~**Strike #1** by <@${MIA}>: late to a session~~ voided by <@${MIA}>: the session was cancelled`,
      );
    });

    it("takes a timeline source's entries in time order, and names one that fails while showing the rest", async () => {
      await give('i-1', {});
      const leave: TimelineSource = {
        name: 'leave',
        entriesOf: () => Promise.resolve([{ at: T0 + DAY, line: '**On leave** until Friday' }]),
      };
      const broken: TimelineSource = { name: 'broken', entriesOf: () => Promise.reject(new Error('down')) };
      const history = await historyAt(T0 + 2 * DAY, [leave, broken]);
      expect(history.entries.map((entry) => entry.line)[0]).toBe('**On leave** until Friday');
      expect(history.entries).toHaveLength(2);
      expect(history.missing).toEqual(['broken']);
    });
  });
}
