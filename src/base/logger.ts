import { pino, stdSerializers, type Logger } from 'pino';

import { ROW_VALUE_FIELDS, withoutRowValues } from './row-values.js';

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

/** pino's serialized error: its own fields, and those it copies of the error (which may be any). */
type SerializedError = ReturnType<typeof stdSerializers.err> & Record<string, unknown>;

/**
 * pino's error serializer, without the fields that quote a stored row (a PostgreSQL error's `detail`, "Failing
 * row contains (…)": a player's name, a reason) and with any value the database quoted in a message replaced,
 * in the error and in those it aggregates. The store's errors are logged as they come (`{ err }`), so this is
 * where a row's values are kept out of the logs.
 */
export function serializeError(error: unknown): unknown {
  const serialized = stdSerializers.err(error as Error) as unknown;
  if (typeof serialized !== 'object' || serialized === null || serialized === error) return serialized;
  return scrubSerialized(serialized as SerializedError);
}

function scrubSerialized(serialized: SerializedError): SerializedError {
  for (const field of ROW_VALUE_FIELDS) delete serialized[field];
  if (typeof serialized.message === 'string') serialized.message = withoutRowValues(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = withoutRowValues(serialized.stack);
  // The errors it aggregates, and any error among its own fields, were serialized the same way.
  for (const value of Object.values(serialized)) {
    const inner: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of inner) if (isSerializedError(item)) scrubSerialized(item);
  }
  return serialized;
}

function isSerializedError(value: unknown): value is SerializedError {
  return typeof value === 'object' && value !== null && 'message' in value && 'stack' in value;
}

/** The process logger: JSON lines on stdout, secrets redacted, errors without the rows they quote. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
