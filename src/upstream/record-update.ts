import { removeControlCharacters } from '../base/control-characters.js';
import type { Envelope, EventName } from './schemas.js';

/**
 * What one delivery changes in the community record: the fields of the case, shift, session or modcall it tells
 * of, as far as it tells them. Several deliveries may tell of one thing (a case created, then voided; a shift
 * started, then ended) in any order: each update carries only what its event knows, and the record merges them
 * (a field once known stays known). `at` is when the thing began, as far as this delivery knows.
 */
export type RecordUpdate =
  | {
      kind: 'case';
      number: number;
      at: number;
      type?: string;
      targetId?: string;
      targetName?: string;
      moderatorId?: string;
      moderatorName?: string;
      reason?: string;
      createdAt?: number;
      voidedAt?: number;
      voidedBy?: string;
      /** The case's evidence as the service gave it, as JSON text (see {@link evidenceTextOf}). */
      evidence?: string;
    }
  | {
      kind: 'shift';
      id: number;
      at: number;
      memberId?: string;
      memberName?: string;
      robloxId?: string;
      startedAt?: number;
      endedAt?: number;
      seconds?: number;
    }
  | {
      kind: 'session';
      id: number;
      at: number;
      name?: string;
      startedById?: string;
      startedByName?: string;
      startedAt?: number;
      endedAt?: number;
      peakPlayers?: number;
      joins?: number;
      cases?: number;
    }
  | { kind: 'modcall'; callerId: string; at: number; callerName?: string };

/** The events that tell the community record something. */
const RECORD_EVENTS: ReadonlySet<string> = new Set<EventName>([
  'case.created',
  'case.voided',
  'shift.started',
  'shift.ended',
  'session.started',
  'session.ended',
  'modcall',
]);

/** True for a delivery whose event tells the community record something (its body is kept until recorded). */
export function tellsRecord(event: string): boolean {
  return RECORD_EVENTS.has(event);
}

type Fields = Record<string, unknown>;

/**
 * The record update a delivery carries, read leniently from its envelope by the record's writer: a field of the
 * wrong type is left out, and a delivery without the thing's key (a case's number, a shift's or session's id, a
 * modcall's caller) carries none. The delivery was stored and posted either way.
 */
export function recordUpdateOf(envelope: Envelope): RecordUpdate | undefined {
  const data = objectOr(envelope.data);
  const sentAt = int(envelope.at);
  switch (envelope.event) {
    case 'case.created':
    case 'case.voided':
      return caseUpdate(objectOr(data?.case), sentAt);
    case 'shift.started':
    case 'shift.ended':
      return shiftUpdate(objectOr(data?.shift), sentAt);
    case 'session.started':
    case 'session.ended':
      return sessionUpdate(objectOr(data?.session), objectOr(data?.stats), sentAt);
    case 'modcall':
      return modcallUpdate(data, sentAt);
    default:
      return undefined;
  }
}

function caseUpdate(found: Fields | undefined, sentAt: number | undefined): RecordUpdate | undefined {
  const number = int(found?.number);
  if (!found || number === undefined) return undefined;
  const target = objectOr(found.target);
  const moderator = objectOr(found.moderator);
  const createdAt = int(found.createdAt);
  const voidedAt = int(found.voidedAt);
  const at = createdAt ?? voidedAt ?? sentAt;
  if (at === undefined) return undefined;
  return compact({
    kind: 'case',
    number,
    at,
    type: text(found.type),
    targetId: text(target?.robloxId),
    targetName: text(target?.name),
    moderatorId: text(moderator?.discordId),
    moderatorName: text(moderator?.name),
    reason: text(found.reason, true),
    createdAt,
    voidedAt,
    voidedBy: text(found.voidedBy),
    evidence: evidenceTextOf(found.evidence),
  });
}

/**
 * The longest evidence the record keeps, as JSON text: far more than any list of links a moderator attaches, and
 * a bound on what one case adds to the record (the body may be 1 MiB).
 */
export const MAX_EVIDENCE_TEXT = 16_000;

/**
 * A case's evidence as JSON text, exactly as the service gave it (its shape is not documented: a link, a list, an
 * object, any JSON value); undefined for none (null or absent). Text over {@link MAX_EVIDENCE_TEXT} is cut there,
 * and is then no longer JSON: the evidence pack shows it as text. JSON escapes control characters, so the column
 * never holds one.
 */
export function evidenceTextOf(evidence: unknown): string | undefined {
  if (evidence === null || evidence === undefined) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(evidence);
  } catch {
    return undefined;
  }
  if (json === undefined || json.length <= MAX_EVIDENCE_TEXT) return json;
  // Never half of a surrogate pair: the column would hold a character that is no character.
  const end = MAX_EVIDENCE_TEXT - (isHighSurrogate(json.charCodeAt(MAX_EVIDENCE_TEXT - 1)) ? 1 : 0);
  return json.slice(0, end);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function shiftUpdate(found: Fields | undefined, sentAt: number | undefined): RecordUpdate | undefined {
  const id = int(found?.id);
  if (!found || id === undefined) return undefined;
  const startedAt = int(found.startedAt);
  const endedAt = int(found.endedAt);
  const seconds = int(found.seconds);
  const at = startedAt ?? (endedAt !== undefined && seconds !== undefined ? endedAt - seconds * 1000 : sentAt);
  if (at === undefined) return undefined;
  return compact({
    kind: 'shift',
    id,
    at,
    memberId: text(found.discordId),
    memberName: text(found.name),
    robloxId: text(found.robloxId),
    startedAt,
    endedAt,
    seconds,
  });
}

function sessionUpdate(
  found: Fields | undefined,
  stats: Fields | undefined,
  sentAt: number | undefined,
): RecordUpdate | undefined {
  const id = int(found?.id);
  if (!found || id === undefined) return undefined;
  const startedAt = int(found.startedAt);
  const at = startedAt ?? sentAt;
  if (at === undefined) return undefined;
  const startedBy = objectOr(found.startedBy);
  return compact({
    kind: 'session',
    id,
    at,
    name: text(found.name),
    startedById: text(startedBy?.discordId),
    startedByName: text(startedBy?.name),
    startedAt,
    endedAt: int(found.endedAt),
    peakPlayers: int(found.peakPlayers),
    joins: int(stats?.joins),
    cases: int(stats?.cases),
  });
}

function modcallUpdate(data: Fields | undefined, sentAt: number | undefined): RecordUpdate | undefined {
  const caller = objectOr(data?.caller);
  const callerId = text(caller?.robloxId);
  const at = int(data?.at) ?? sentAt;
  if (callerId === undefined || at === undefined) return undefined;
  return compact({ kind: 'modcall', callerId, at, callerName: text(caller?.name) });
}

/** The update without its absent fields. */
function compact<T extends Fields>(update: T): RecordUpdate {
  for (const key of Object.keys(update)) if (update[key] === undefined) delete update[key];
  return update as unknown as RecordUpdate;
}

function objectOr(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

function int(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Ids may come as numbers; longer text than a name or reason would hold is cut to what the record keeps. No control
 * character is kept (PostgreSQL refuses U+0000 in a column); with `keepLayout` (a reason), tab and line breaks are.
 */
function text(value: unknown, keepLayout = false): string | undefined {
  if (typeof value === 'string') {
    const clean = removeControlCharacters(value, keepLayout);
    return clean.length > MAX_TEXT ? clean.slice(0, MAX_TEXT) : clean;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** The longest text the record keeps of a field (a reason, a name): Discord shows no more in a lookup. */
const MAX_TEXT = 1000;
