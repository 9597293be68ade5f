import type { PersonRows } from '../../../store/person-rows.js';

const BY_PERSON = ['guild', 'person'] as const;

/**
 * The conduct guard's rows naming a person: its incidents about them (a moderator's, by their Discord id; a staff
 * member's cases against them, by the player's Roblox id; deleted: an incident is about its subject), and the
 * incidents they acknowledged or dismissed (kept, by nobody).
 */
export const CONDUCT_PERSON_ROWS: readonly PersonRows[] = [
  ...(['member', 'player'] as const).map((of): PersonRows => ({
    of,
    what: 'conduct incidents about them',
    forgetting: 'deleted',
    select: {
      sql: 'SELECT opened_at AS at, rule, state FROM conduct_finding WHERE guild_id = ? AND subject = ?',
      binds: BY_PERSON,
    },
    forget: [{ sql: 'DELETE FROM conduct_finding WHERE guild_id = ? AND subject = ?', binds: BY_PERSON }],
  })),
  {
    of: 'member',
    what: 'conduct incidents acknowledged or dismissed',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT acted_at AS at, rule, state FROM conduct_finding WHERE guild_id = ? AND acted_by = ?',
      binds: BY_PERSON,
    },
    forget: [
      { sql: 'UPDATE conduct_finding SET acted_by = NULL WHERE guild_id = ? AND acted_by = ?', binds: BY_PERSON },
    ],
  },
];
