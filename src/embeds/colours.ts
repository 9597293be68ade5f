/** Embed colours (0xRRGGBB). Severity reads at a glance in the feed: the hotter, the more serious. */
export const COLOURS = {
  warn: 0xffbf00,
  kick: 0xe67e22,
  ban: 0xed4245,
  /** Case types the service has not documented. */
  otherCase: 0x95a5a6,
  /** Voided cases step back from the feed. */
  voided: 0x4f545c,
  sessionStarted: 0x57f287,
  sessionEnded: 0x5865f2,
  /** A player is waiting for a moderator: the one colour that should stand out. */
  modcall: 0xeb459e,
  shiftStarted: 0x1abc9c,
  shiftEnded: 0x607d8b,
  /** Unknown events and data that did not match. */
  fallback: 0x99aab5,
} as const;
