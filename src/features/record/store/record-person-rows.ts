import { FORMER_MEMBER, FORMER_PLAYER, type PersonRows } from '../../../store/person-rows.js';

const BY_PERSON = ['guild', 'person'] as const;

/**
 * The community record's rows naming a person. A player's cases stay, as a moderator's work, without the player
 * (id, name, reason); a member's cases and sessions stay counted, by "a former member"; their shifts go, and their
 * claims stay counted as claims, by nobody. So every other person's figures, and the guild's totals of cases,
 * sessions and modcalls, are what they were.
 */
export const RECORD_PERSON_ROWS: readonly PersonRows[] = [
  {
    of: 'player',
    what: 'cases about the player',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT at, server, number, type, reason FROM record_case WHERE guild_id = ? AND target_id = ?',
      binds: BY_PERSON,
    },
    forget: [
      {
        sql: `UPDATE record_case SET target_id = NULL, target_name = '${FORMER_PLAYER}', reason = NULL WHERE guild_id = ? AND target_id = ?`,
        binds: BY_PERSON,
      },
    ],
  },
  {
    of: 'player',
    what: "the player's name",
    forgetting: 'deleted',
    select: { sql: 'SELECT at, name FROM record_player WHERE guild_id = ? AND player_id = ?', binds: BY_PERSON },
    forget: [{ sql: 'DELETE FROM record_player WHERE guild_id = ? AND player_id = ?', binds: BY_PERSON }],
  },
  {
    of: 'player',
    what: "the player's modcalls",
    forgetting: 'anonymised',
    select: { sql: 'SELECT at, server FROM record_modcall WHERE guild_id = ? AND caller_id = ?', binds: BY_PERSON },
    // The caller is part of the row's key: a token new to this forgetting stands in for them.
    forget: [
      {
        sql: 'UPDATE record_modcall SET caller_id = ?, caller_name = NULL WHERE guild_id = ? AND caller_id = ?',
        binds: ['token', 'guild', 'person'],
      },
    ],
  },
  {
    of: 'player',
    what: 'shifts naming the Roblox account',
    forgetting: 'anonymised',
    select: { sql: 'SELECT at, server FROM record_shift WHERE guild_id = ? AND roblox_id = ?', binds: BY_PERSON },
    forget: [
      { sql: 'UPDATE record_shift SET roblox_id = NULL WHERE guild_id = ? AND roblox_id = ?', binds: BY_PERSON },
    ],
  },
  {
    of: 'member',
    what: 'cases made as moderator',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT at, server, number, type, moderator_name FROM record_case WHERE guild_id = ? AND moderator_id = ?',
      binds: BY_PERSON,
    },
    forget: [
      {
        sql: `UPDATE record_case SET moderator_id = NULL, moderator_name = '${FORMER_MEMBER}' WHERE guild_id = ? AND moderator_id = ?`,
        binds: BY_PERSON,
      },
    ],
  },
  {
    of: 'member',
    what: 'cases voided',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT voided_at AS at, server, number FROM record_case WHERE guild_id = ? AND voided_by = ?',
      binds: BY_PERSON,
    },
    forget: [
      {
        sql: `UPDATE record_case SET voided_by = '${FORMER_MEMBER}' WHERE guild_id = ? AND voided_by = ?`,
        binds: BY_PERSON,
      },
    ],
  },
  {
    of: 'member',
    what: 'shifts',
    forgetting: 'deleted',
    select: {
      sql: 'SELECT at, server, member_name, roblox_id, started_at, ended_at, seconds FROM record_shift WHERE guild_id = ? AND member_id = ?',
      binds: BY_PERSON,
    },
    forget: [{ sql: 'DELETE FROM record_shift WHERE guild_id = ? AND member_id = ?', binds: BY_PERSON }],
  },
  {
    of: 'member',
    what: 'sessions started',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT at, server, name, started_by_name FROM record_session WHERE guild_id = ? AND started_by_id = ?',
      binds: BY_PERSON,
    },
    forget: [
      {
        sql: `UPDATE record_session SET started_by_id = NULL, started_by_name = '${FORMER_MEMBER}' WHERE guild_id = ? AND started_by_id = ?`,
        binds: BY_PERSON,
      },
    ],
  },
  {
    of: 'member',
    what: 'modcalls claimed or resolved',
    forgetting: 'anonymised',
    select: {
      sql: 'SELECT at, server, claimed_at, resolved_at FROM record_modcall WHERE guild_id = ? AND (claimed_by = ? OR resolved_by = ?)',
      binds: ['guild', 'person', 'person'],
    },
    // Claimed and resolved still, when they were: counted as before, by nobody.
    forget: [
      { sql: 'UPDATE record_modcall SET claimed_by = NULL WHERE guild_id = ? AND claimed_by = ?', binds: BY_PERSON },
      { sql: 'UPDATE record_modcall SET resolved_by = NULL WHERE guild_id = ? AND resolved_by = ?', binds: BY_PERSON },
    ],
  },
];
