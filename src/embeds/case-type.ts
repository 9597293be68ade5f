import { COLOURS } from './colours.js';
import { formatName } from './format.js';

/** The case types we style; the service documents only `warn`, the others are the usual moderation trio. */
const KNOWN_CASE_TYPES = {
  warn: { label: 'Warn', colour: COLOURS.warn },
  kick: { label: 'Kick', colour: COLOURS.kick },
  ban: { label: 'Ban', colour: COLOURS.ban },
} as const;

type KnownCaseType = keyof typeof KNOWN_CASE_TYPES;

function toKnownCaseType(type: string): KnownCaseType | undefined {
  const key = type.trim().toLowerCase();
  return Object.hasOwn(KNOWN_CASE_TYPES, key) ? (key as KnownCaseType) : undefined;
}

/** `Warn`, `Kick`, `Ban`; any other type as it came (escaped), so a new type is still readable. */
export function formatCaseType(type: string): string {
  const known = toKnownCaseType(type);
  return known === undefined ? formatName(type) : KNOWN_CASE_TYPES[known].label;
}

/** Amber for warn, orange for kick, red for ban, grey for anything else. */
export function caseTypeColour(type: string): number {
  const known = toKnownCaseType(type);
  return known === undefined ? COLOURS.otherCase : KNOWN_CASE_TYPES[known].colour;
}
