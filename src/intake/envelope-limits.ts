import { hasControlCharacters } from '../base/control-characters.js';
import { MAX_KEY_LENGTH } from '../upstream/routing-keys.js';
import type { Envelope } from '../upstream/schemas.js';
import type { IntakeErrorCode } from './error-response.js';

/**
 * The longest `id`, `event` and `server` (as text) an envelope may have, in characters. Each is stored in a column
 * of its own and in a unique key (`id`): the service's are far shorter (a delivery id of about 50, an event name
 * of at most 15, a server's digits), and a longer one is refused before it reaches the store, with a 400 the
 * service can read, not a 500 it would retry forever.
 */
export const ENVELOPE_FIELD_LIMITS = { id: 256, event: 64, server: MAX_KEY_LENGTH } as const;

/** Why an envelope's fields are refused: its code and the message answered (naming the field, never its value). */
export interface EnvelopeFieldProblem {
  code: Extract<IntakeErrorCode, 'envelope_field_too_long' | 'envelope_field_control_character'>;
  message: string;
}

/**
 * What is wrong with the envelope's `id`, `event` or `server`, or undefined when nothing is: longer than its
 * limit, or carrying a control character (no id or name the service sends has one, and PostgreSQL refuses U+0000
 * in a column). The data's own text is never refused: the record and the cards drop such characters from it.
 */
export function checkEnvelopeFields(envelope: Envelope): EnvelopeFieldProblem | undefined {
  const fields = { id: envelope.id, event: envelope.event, server: envelope.server };
  for (const name of ['id', 'event', 'server'] as const) {
    const value = fields[name];
    // A server may come as a number (kept as its digits) or not at all.
    if (typeof value !== 'string') continue;
    if (value.length > ENVELOPE_FIELD_LIMITS[name]) {
      return {
        code: 'envelope_field_too_long',
        message: `the envelope's "${name}" is longer than ${ENVELOPE_FIELD_LIMITS[name]} characters`,
      };
    }
    if (hasControlCharacters(value)) {
      return {
        code: 'envelope_field_control_character',
        message: `the envelope's "${name}" carries a control character (U+0000 to U+001F)`,
      };
    }
  }
  return undefined;
}
