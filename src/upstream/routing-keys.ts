import { removeControlCharacters } from '../base/control-characters.js';
import type { Envelope } from './schemas.js';

/**
 * Longer values are not ids or types the service sends; they are not stored as routing keys (the intake refuses a
 * longer `server` outright, envelope-limits.ts).
 */
export const MAX_KEY_LENGTH = 64;

/**
 * What routing rules may name of a delivery besides its event: its game server (`server`, digits in a string,
 * upstream-api.md §3) and, for a case event, the case's `type`. Read from the envelope alone, leniently: a
 * delivery whose payload does not match our schemas is still stored, just without keys the rules could name.
 */
export function routingKeysOf(envelope: Envelope): { server?: string; caseType?: string } {
  const server = keyOf(envelope.server);
  const type = envelope.event.startsWith('case.') ? caseOf(envelope.data)?.type : undefined;
  // A case type is a word (`warn`); a server id may come as a number.
  const caseType = typeof type === 'string' ? keyOf(type) : undefined;
  return { ...(server !== undefined ? { server } : {}), ...(caseType !== undefined ? { caseType } : {}) };
}

function caseOf(data: unknown): { type?: unknown } | undefined {
  if (typeof data !== 'object' || data === null || !('case' in data)) return undefined;
  const { case: found } = data;
  return typeof found === 'object' && found !== null ? found : undefined;
}

/** A key as a rule names it: no control character (a column refuses U+0000; a rule could not name one). */
function keyOf(value: unknown): string | undefined {
  const text =
    typeof value === 'string'
      ? removeControlCharacters(value)
      : typeof value === 'number' && Number.isSafeInteger(value)
        ? String(value)
        : undefined;
  return text !== undefined && text.length > 0 && text.length <= MAX_KEY_LENGTH ? text : undefined;
}
