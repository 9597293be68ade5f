import type { PersonRows } from '../../../store/person-rows.js';

const BY_PERSON = ['guild', 'person'] as const;

/**
 * Leave's rows naming a member: their own requests and the leave role given to them (deleted: their leave is
 * theirs; a role still on them stays until an admin takes it), and the requests they decided and the leave role
 * they chose (kept, the decision by nobody: the card says "?"; the role is given again once an admin chooses it).
 */
export const LEAVE_PERSON_ROWS: readonly PersonRows[] = [
  {
    of: 'member',
    what: 'leave requested',
    forgetting: 'deleted',
    select: {
      sql: 'SELECT asked_at AS at, kind, starts_at, ends_at, reason, state FROM leave_request WHERE guild_id = ? AND member_id = ?',
      binds: BY_PERSON,
    },
    forget: [
      { sql: 'DELETE FROM leave_role_holder WHERE guild_id = ? AND member_id = ?', binds: BY_PERSON },
      { sql: 'DELETE FROM leave_request WHERE guild_id = ? AND member_id = ?', binds: BY_PERSON },
    ],
  },
  {
    of: 'member',
    what: 'leave decided',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT decided_at AS at, number, state FROM leave_request WHERE guild_id = ? AND decided_by = ?',
      binds: BY_PERSON,
    },
    forget: [
      { sql: 'UPDATE leave_request SET decided_by = NULL WHERE guild_id = ? AND decided_by = ?', binds: BY_PERSON },
    ],
  },
  {
    of: 'member',
    what: 'leave role chosen',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT NULL AS at, role_id FROM leave_settings WHERE guild_id = ? AND role_set_by = ?',
      binds: BY_PERSON,
    },
    forget: [
      // The role was given only while its chooser could give it: without a chooser it is not given until chosen again.
      {
        sql: 'UPDATE leave_settings SET role_set_by = NULL, role_id = NULL WHERE guild_id = ? AND role_set_by = ?',
        binds: BY_PERSON,
      },
    ],
  },
];
