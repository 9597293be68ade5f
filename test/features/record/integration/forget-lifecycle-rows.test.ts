import { afterEach, describe, expect, it } from 'vitest';

import { FORMER_MEMBER } from '../../../../src/store/person-rows.js';
import type { Store } from '../../../../src/store/store.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const GUILD = '222222222222222222';
const MEMBER = '400000000000000001';
const MANAGER = '400000000000000002';
const OTHER = '400000000000000003';
const PLAYER = '2391045817';
const AT = Date.parse('2026-11-20T12:00:00Z');

/**
 * Rows of the staff lifecycle and the conduct guard about a member, one of each kind: their leave and the leave role
 * given to them, their infraction and rank change, an incident about them; what they did as a manager (a leave they
 * decided, a leave role they chose, an infraction they gave and voided, a rank change they made, an incident they
 * acknowledged); and the same kinds about someone else, which forgetting must leave as they are.
 */
const ROWS = `
  INSERT INTO leave_settings (guild_id, channel_id, manager_role_id, role_id, role_set_by, time_zone, last_number)
    VALUES ('${GUILD}', NULL, NULL, '500', '${MEMBER}', 'UTC', 3);
  INSERT INTO leave_request (guild_id, number, member_id, kind, starts_at, ends_at, planned_end, reason, state, asked_at, decided_by, decided_at, failures)
    VALUES ('${GUILD}', 1, '${MEMBER}', 'leave', ${AT}, ${AT + 86_400_000}, ${AT + 86_400_000}, 'exams', 'approved', ${AT}, '${MANAGER}', ${AT}, 0),
           ('${GUILD}', 2, '${OTHER}', 'leave', ${AT}, ${AT + 86_400_000}, ${AT + 86_400_000}, 'travel', 'approved', ${AT}, '${MEMBER}', ${AT}, 0);
  INSERT INTO leave_role_holder (guild_id, number, member_id, role_id, given_at) VALUES ('${GUILD}', 1, '${MEMBER}', '500', ${AT});
  INSERT INTO staff_infraction (guild_id, number, request_id, member_id, type, reason, given_by, given_at, voided_by, voided_at, void_reason)
    VALUES ('${GUILD}', 1, 'i-1', '${MEMBER}', 'strike', 'late to shift', '${MANAGER}', ${AT}, NULL, NULL, NULL),
           ('${GUILD}', 2, 'i-2', '${OTHER}', 'warning', 'rude in chat', '${MEMBER}', ${AT}, '${MEMBER}', ${AT}, 'appeal won');
  INSERT INTO staff_promotion (guild_id, request_id, member_id, direction, from_role_id, to_role_id, reason, given_by, asked_at, done_at)
    VALUES ('${GUILD}', 'p-1', '${MEMBER}', 'promote', '600', '601', 'good work', '${MANAGER}', ${AT}, ${AT}),
           ('${GUILD}', 'p-2', '${OTHER}', 'promote', '600', '601', NULL, '${MEMBER}', ${AT}, ${AT});
  INSERT INTO conduct_finding (guild_id, id, rule, subject, opened_at, first_at, last_at, hits, state, acted_by, acted_at, version, synced_version, sync_try_at, sync_failures)
    VALUES ('${GUILD}', 'f-1', 'off-shift', '${MEMBER}', ${AT}, ${AT}, ${AT}, '[]', 'open', NULL, NULL, 1, 1, 0, 0),
           ('${GUILD}', 'f-2', 'staff-target', '${PLAYER}', ${AT}, ${AT}, ${AT}, '[]', 'open', NULL, NULL, 1, 1, 0, 0),
           ('${GUILD}', 'f-3', 'bans', '${OTHER}', ${AT}, ${AT}, ${AT}, '[]', 'acknowledged', '${MEMBER}', ${AT}, 1, 1, 0, 0);
`;

describe.each(STORE_ENGINES)(
  'forgetting a member, the staff lifecycle and conduct, on $name',
  ({ available, create }) => {
    let db: EngineDatabase | undefined;
    let store: Store | undefined;

    afterEach(async () => {
      await store?.close();
      await db?.dispose();
    });

    it.skipIf(!available)('deletes what was about them, keeps what they did for others without them', async () => {
      db = await create();
      store = await db.open();
      await db.exec(ROWS);
      const member = { guildId: GUILD, kind: 'member' as const, id: MEMBER };
      const kept = Object.fromEntries(
        (await store.people.keptAbout(member)).map((rows) => [rows.what, rows.rows.length]),
      );
      expect(kept).toMatchObject({
        'leave requested': 1,
        'leave decided': 1,
        'leave role chosen': 1,
        'infractions received': 1,
        'rank changes received': 1,
        'infractions given or voided': 1,
        'rank changes made': 1,
        'conduct incidents about them': 1,
        'conduct incidents acknowledged or dismissed': 1,
      });

      await store.people.forget(member);

      const every = async (sql: string) => JSON.stringify(await db?.query(sql));
      for (const table of [
        'leave_settings',
        'leave_request',
        'leave_role_holder',
        'staff_infraction',
        'staff_promotion',
        'conduct_finding',
      ]) {
        expect(await every(`SELECT * FROM ${table}`), table).not.toContain(MEMBER);
      }
      // Others' rows stay: the other member's leave, infraction, rank change and incident, by a former member.
      expect(await db.query(`SELECT member_id, decided_by FROM leave_request ORDER BY number`)).toEqual([
        { member_id: OTHER, decided_by: null },
      ]);
      expect(await db.query(`SELECT member_id, given_by, voided_by FROM staff_infraction ORDER BY number`)).toEqual([
        { member_id: OTHER, given_by: FORMER_MEMBER, voided_by: FORMER_MEMBER },
      ]);
      expect(await db.query(`SELECT request_id, member_id, given_by FROM staff_promotion ORDER BY request_id`)).toEqual(
        [{ request_id: 'p-2', member_id: OTHER, given_by: FORMER_MEMBER }],
      );
      expect(await db.query(`SELECT id, subject, acted_by FROM conduct_finding ORDER BY id`)).toEqual([
        { id: 'f-2', subject: PLAYER, acted_by: null },
        { id: 'f-3', subject: OTHER, acted_by: null },
      ]);
      // The leave role is not given without the admin who chose it.
      expect(await db.query(`SELECT role_id, role_set_by FROM leave_settings`)).toEqual([
        { role_id: null, role_set_by: null },
      ]);
      expect(await store.people.keptAbout(member)).toEqual([]);
    });

    it.skipIf(!available)(
      "deletes a conduct incident about a player (a case against staff) with the player's rows",
      async () => {
        db = await create();
        store = await db.open();
        await db.exec(ROWS);
        await store.people.forget({ guildId: GUILD, kind: 'player', id: PLAYER });
        expect(await db.query(`SELECT id FROM conduct_finding ORDER BY id`)).toEqual([{ id: 'f-1' }, { id: 'f-3' }]);
      },
    );
  },
);
