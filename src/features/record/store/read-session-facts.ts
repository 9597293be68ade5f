import type { SqlRunner } from '../../../store/sql-runner.js';
import type { SessionFacts } from './session-facts.js';
import { SHIFT_LOOKBACK_MS, type sessionStatements } from './session-statements.js';

type SessionStatements = ReturnType<typeof sessionStatements>;

/** Reads one session's facts (see SessionRecord.sessionFacts) with the runner's reads. */
export async function readSessionFacts(
  runner: SqlRunner,
  sql: SessionStatements,
  where: { guildId: string; server: string; sessionId: number },
  until: number,
  limit: number,
): Promise<SessionFacts | undefined> {
  const { guildId, server, sessionId } = where;
  const [row] = await runner.read(sql.session, [guildId, server, sessionId]);
  if (!row || row.started_at === null) return undefined;
  const from = row.started_at;
  // Up to its end, the end's own moment included; while it runs, up to now.
  const to = row.ended_at === null ? until : row.ended_at + 1;
  const [cases, modcalls, shifts] = await Promise.all([
    runner.read(sql.cases, [guildId, server, from, to, limit]),
    runner.read(sql.modcalls, [guildId, server, from, to, limit]),
    runner.read(sql.shifts, [guildId, server, from - SHIFT_LOOKBACK_MS, to, from, limit]),
  ]);
  return {
    session: {
      server,
      sessionId,
      name: row.name,
      startedAt: from,
      endedAt: row.ended_at,
      peakPlayers: row.peak_players,
      joins: row.joins,
    },
    cases: cases.map((found) => ({
      at: found.at,
      number: found.number,
      type: found.type,
      targetName: found.target_name,
      moderatorId: found.moderator_id,
      moderatorName: found.moderator_name,
      voided: found.voided_at !== null,
    })),
    modcalls: modcalls.map((found) => ({
      at: found.at,
      calledAt: found.called_at,
      calls: found.calls,
      callerName: found.caller_name,
      claimedBy: found.claimed_by,
      claimedAt: found.claimed_at,
      resolvedAt: found.resolved_at,
    })),
    shifts: shifts.map((found) => ({
      shiftId: found.shift_id,
      memberId: found.member_id,
      memberName: found.member_name,
      startedAt: found.started_at,
      endedAt: found.ended_at,
    })),
  };
}
