import { FORMER_MEMBER, type PersonRows } from '../../../store/person-rows.js';

const BY_PERSON = ['guild', 'person'] as const;

/**
 * The staff actions' rows naming a member: their own infractions and rank changes (deleted: discipline is about
 * them), and those they gave or voided (kept, by "a former member": the member they were about keeps their history).
 */
export const STAFF_ACTIONS_PERSON_ROWS: readonly PersonRows[] = [
  {
    of: 'member',
    what: 'infractions received',
    forgetting: 'deleted',
    select: {
      sql: 'SELECT given_at AS at, number, type, reason, evidence, expires_at, voided_at FROM staff_infraction WHERE guild_id = ? AND member_id = ?',
      binds: BY_PERSON,
    },
    forget: [{ sql: 'DELETE FROM staff_infraction WHERE guild_id = ? AND member_id = ?', binds: BY_PERSON }],
  },
  {
    of: 'member',
    what: 'rank changes received',
    forgetting: 'deleted',
    select: {
      sql: 'SELECT asked_at AS at, direction, from_role_id, to_role_id, reason FROM staff_promotion WHERE guild_id = ? AND member_id = ?',
      binds: BY_PERSON,
    },
    forget: [{ sql: 'DELETE FROM staff_promotion WHERE guild_id = ? AND member_id = ?', binds: BY_PERSON }],
  },
  {
    of: 'member',
    what: 'infractions given or voided',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT given_at AS at, number, type FROM staff_infraction WHERE guild_id = ? AND (given_by = ? OR voided_by = ?)',
      binds: ['guild', 'person', 'person'],
    },
    forget: [
      {
        sql: `UPDATE staff_infraction SET given_by = '${FORMER_MEMBER}' WHERE guild_id = ? AND given_by = ?`,
        binds: BY_PERSON,
      },
      {
        sql: `UPDATE staff_infraction SET voided_by = '${FORMER_MEMBER}' WHERE guild_id = ? AND voided_by = ?`,
        binds: BY_PERSON,
      },
    ],
  },
  {
    of: 'member',
    what: 'rank changes made',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT asked_at AS at, direction, to_role_id FROM staff_promotion WHERE guild_id = ? AND given_by = ?',
      binds: BY_PERSON,
    },
    forget: [
      {
        sql: `UPDATE staff_promotion SET given_by = '${FORMER_MEMBER}' WHERE guild_id = ? AND given_by = ?`,
        binds: BY_PERSON,
      },
    ],
  },
];
