import { formatName, formatUserText } from './format.js';

/** Session names are cut well inside the 256 title limit, after the title's own words. */
const MAX_SESSION_NAME_LENGTH = 200;
/** Announcements can be long; this leaves room in the 6000 budget when several embeds share a message. */
const MAX_SESSION_MESSAGE_LENGTH = 2000;

/** `<what> · <session name>`, the name escaped and on one line. */
export function formatSessionTitle(what: string, name: string): string {
  return `${what} · ${formatName(name, MAX_SESSION_NAME_LENGTH)}`;
}

/** The session's announcement as the embed description; undefined (no description) when it is blank. */
export function formatSessionMessage(message: unknown): string | undefined {
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  return formatUserText(message, MAX_SESSION_MESSAGE_LENGTH);
}
