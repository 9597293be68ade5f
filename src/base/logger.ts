import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Paths pino blanks out wherever they appear in a log object: a key, a secret or a signature must never reach
 * a log line, even when a whole record or request is logged by mistake.
 */
export const REDACTED_PATHS = [
  'secret',
  '*.secret',
  'serverKey',
  '*.serverKey',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers["x-service-signature"]',
  '*.headers["x-service-signature"]',
];

/** The process logger: JSON lines on stdout, secrets redacted. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
