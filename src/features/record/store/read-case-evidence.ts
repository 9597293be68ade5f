import type { SqlRunner } from '../../../store/sql-runner.js';
import type { RowOf } from '../../../store/table-columns.js';
import {
  EARLIER_CASES_SHOWN,
  EVIDENCE_MODCALL_SPAN_MS,
  EVIDENCE_MODCALLS_SHOWN,
  EVIDENCE_SESSION_LOOKBACK_MS,
  EVIDENCE_SHIFTS_SHOWN,
  NUMBERED_SERVERS_SHOWN,
  type EvidenceCase,
  type EvidenceLookup,
  type EvidenceShift,
} from './case-evidence.js';
import type { EVIDENCE_CASE, EvidenceStatements } from './evidence-statements.js';
import type { RecordStatements } from './record-statements.js';
import { SHIFT_LOOKBACK_MS } from './session-statements.js';

/** Reads one case's evidence pack (see EvidenceRecord.caseEvidence) with the runner's reads, a few at a time. */
export async function readCaseEvidence(
  runner: SqlRunner,
  sql: { evidence: EvidenceStatements; record: Pick<RecordStatements, 'earlierCases'> },
  where: { guildId: string; number: number; server?: string | undefined },
): Promise<EvidenceLookup> {
  const { guildId, number } = where;
  const numbered = await runner.read(sql.evidence.casesNumbered, [guildId, number, NUMBERED_SERVERS_SHOWN + 1]);
  const matching = where.server === undefined ? numbered : numbered.filter((row) => row.server === where.server);
  const [row] = matching;
  if (!row) return { kind: 'none' };
  if (matching.length > 1) return { kind: 'several', servers: matching.map((found) => found.server) };

  const found = toEvidenceCase(row);
  const moment = found.at;
  const { server, moderatorId, targetId } = found;
  const ev = sql.evidence;
  const [modcalls, onShift, lastShift, [session], earlier, byType] = await Promise.all([
    targetId === undefined
      ? Promise.resolve([])
      : runner.read(ev.modcalls, [
          guildId,
          server,
          targetId,
          moment - EVIDENCE_MODCALL_SPAN_MS,
          moment,
          EVIDENCE_MODCALLS_SHOWN + 1,
        ]),
    runner.read(ev.shiftsAt, [guildId, moment - SHIFT_LOOKBACK_MS, moment, moment, EVIDENCE_SHIFTS_SHOWN + 1]),
    moderatorId === undefined ? Promise.resolve([]) : runner.read(ev.lastShiftOf, [guildId, moderatorId, moment]),
    runner.read(ev.sessionAt, [guildId, server, moment - EVIDENCE_SESSION_LOOKBACK_MS, moment, moment]),
    targetId === undefined
      ? Promise.resolve([])
      : runner.read(ev.casesBefore, [guildId, targetId, moment, EARLIER_CASES_SHOWN]),
    targetId === undefined ? Promise.resolve([]) : runner.read(sql.record.earlierCases, [guildId, targetId, moment]),
  ]);
  return {
    kind: 'found',
    evidence: {
      case: found,
      modcalls: modcalls.slice(0, EVIDENCE_MODCALLS_SHOWN).map((call) => ({
        at: call.at,
        calls: call.calls,
        callerName: call.caller_name,
        claimedBy: call.claimed_by,
        claimedAt: call.claimed_at,
        resolvedBy: call.resolved_by,
        resolvedAt: call.resolved_at,
      })),
      moreModcalls: modcalls.length > EVIDENCE_MODCALLS_SHOWN,
      onShift: onShift.slice(0, EVIDENCE_SHIFTS_SHOWN).map(toShift),
      moreOnShift: onShift.length > EVIDENCE_SHIFTS_SHOWN,
      moderatorLastShift: lastShift[0] && toShift(lastShift[0]),
      session:
        session && session.started_at !== null
          ? {
              sessionId: session.session_id,
              name: session.name,
              startedById: session.started_by_id,
              startedByName: session.started_by_name,
              startedAt: session.started_at,
              endedAt: session.ended_at,
              peakPlayers: session.peak_players,
            }
          : undefined,
      earlierCases: earlier.map(toEvidenceCase),
      earlierByType: byType.map(({ type, count }) => ({ type, count })),
    },
  };
}

function toShift(row: {
  server: string;
  shift_id: number;
  member_id: string | null;
  member_name: string | null;
  at: number;
  ended_at: number | null;
}): EvidenceShift {
  return {
    server: row.server,
    shiftId: row.shift_id,
    memberId: row.member_id,
    memberName: row.member_name,
    startedAt: row.at,
    endedAt: row.ended_at,
  };
}

/** A case row as the pack shows it: what no delivery told yet is absent. */
function toEvidenceCase(row: RowOf<typeof EVIDENCE_CASE>): EvidenceCase {
  const found: EvidenceCase = { server: row.server, number: row.number, at: row.at };
  if (row.type !== null) found.type = row.type;
  if (row.target_id !== null) found.targetId = row.target_id;
  if (row.target_name !== null) found.targetName = row.target_name;
  if (row.moderator_id !== null) found.moderatorId = row.moderator_id;
  if (row.moderator_name !== null) found.moderatorName = row.moderator_name;
  if (row.reason !== null) found.reason = row.reason;
  if (row.created_at !== null) found.createdAt = row.created_at;
  if (row.voided_at !== null) found.voidedAt = row.voided_at;
  if (row.voided_by !== null) found.voidedBy = row.voided_by;
  if (row.evidence !== null) found.evidence = row.evidence;
  return found;
}
