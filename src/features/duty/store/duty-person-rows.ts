import type { PersonRows } from '../../../store/person-rows.js';

/**
 * The duty feature's rows naming a member: whom the bot gave the on-duty role to (deleted: the bot no longer
 * takes the role back from them; an admin removes it by hand), and who chose the role (then nobody: the role is
 * given again only once an admin chooses it again, as when its chooser left).
 */
export const DUTY_PERSON_ROWS: readonly PersonRows[] = [
  {
    of: 'member',
    what: 'on-duty role given',
    forgetting: 'deleted',
    select: {
      sql: 'SELECT given_at AS at, role_id FROM duty_role_holder WHERE guild_id = ? AND member_id = ?',
      binds: ['guild', 'person'],
    },
    forget: [{ sql: 'DELETE FROM duty_role_holder WHERE guild_id = ? AND member_id = ?', binds: ['guild', 'person'] }],
  },
  {
    of: 'member',
    what: 'on-duty role chosen',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT board_asked_at AS at, role_id FROM duty_guild WHERE guild_id = ? AND role_set_by = ?',
      binds: ['guild', 'person'],
    },
    forget: [
      {
        sql: 'UPDATE duty_guild SET role_set_by = NULL WHERE guild_id = ? AND role_set_by = ?',
        binds: ['guild', 'person'],
      },
    ],
  },
];
