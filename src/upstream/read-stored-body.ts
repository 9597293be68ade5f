import { removeEscapedControlCharacters } from '../base/control-characters.js';

/**
 * A stored delivery's body, parsed, its strings rid of control characters but tab and line breaks; undefined when
 * it is not JSON. The one way the bot reads a body it stored (the feed and its cards, the record's writer): the
 * store keeps the body exactly as received and signed, and what is read from it may reach any column (PostgreSQL
 * refuses U+0000 in TEXT and JSONB) or embed.
 */
export function readStoredBody(rawBody: string): unknown {
  try {
    return JSON.parse(removeEscapedControlCharacters(rawBody));
  } catch {
    return undefined;
  }
}
