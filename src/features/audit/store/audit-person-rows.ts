import { FORMER_MEMBER, FORMER_PLAYER, type PersonRows } from '../../../store/person-rows.js';

/** What an audit line's `user_id` says of a forgotten member; /audit shows it as "a former member". */
export const FORMER_USER_ID = 'former';

const MENTION = `'<@' || CAST(? AS TEXT) || '>'`;

/**
 * The audit log's lines naming a person: a member's own actions and lookups stay, by "a former member"; the
 * lookups about a person stay (who looked, when), about "a former player" or "a former member"; a mention of a
 * member in any other line becomes "a former member".
 */
export const AUDIT_PERSON_ROWS: readonly PersonRows[] = [
  {
    of: 'member',
    what: 'audit lines of what the member did or looked up',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT at, action, result FROM audit WHERE guild_id = ? AND user_id = ?',
      binds: ['guild', 'person'],
    },
    forget: [
      {
        sql: `UPDATE audit SET user_id = '${FORMER_USER_ID}' WHERE guild_id = ? AND user_id = ?`,
        binds: ['guild', 'person'],
      },
    ],
  },
  {
    of: 'member',
    what: 'lookups about the member',
    forgetting: 'anonymised',
    // Who looked is theirs, not the member's: not shown to the member.
    select: {
      sql: `SELECT at, action FROM audit WHERE guild_id = ? AND subject = 'member:' || CAST(? AS TEXT)`,
      binds: ['guild', 'person'],
    },
    forget: [
      {
        sql: `UPDATE audit SET action = 'a lookup about ${FORMER_MEMBER}', subject = NULL WHERE guild_id = ? AND subject = 'member:' || CAST(? AS TEXT)`,
        binds: ['guild', 'person'],
      },
    ],
  },
  {
    of: 'member',
    what: 'audit lines mentioning the member',
    forgetting: 'anonymised',
    select: {
      sql: `SELECT at, action FROM audit WHERE guild_id = ? AND action LIKE '%' || ${MENTION} || '%' AND (subject IS NULL OR subject <> 'member:' || CAST(? AS TEXT))`,
      binds: ['guild', 'person', 'person'],
    },
    forget: [
      {
        sql: `UPDATE audit SET action = replace(action, ${MENTION}, '${FORMER_MEMBER}') WHERE guild_id = ? AND action LIKE '%' || ${MENTION} || '%'`,
        binds: ['person', 'guild', 'person'],
      },
    ],
  },
  {
    of: 'player',
    what: 'lookups about the player',
    forgetting: 'anonymised',
    select: {
      sql: `SELECT at, action FROM audit WHERE guild_id = ? AND subject = 'player:' || CAST(? AS TEXT)`,
      binds: ['guild', 'person'],
    },
    forget: [
      {
        sql: `UPDATE audit SET action = 'a lookup about ${FORMER_PLAYER}', subject = NULL WHERE guild_id = ? AND subject = 'player:' || CAST(? AS TEXT)`,
        binds: ['guild', 'person'],
      },
    ],
  },
];
