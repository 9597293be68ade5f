import { withoutRowValues } from '../base/row-values.js';

/** An error reduced to what a log line may hold. */
export interface LoggableError {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
  status?: number;
}

/**
 * Picks the fields of an error worth logging and blanks out every `secret` (text the user typed, such as a
 * pasted key) wherever it appears. Only these fields are kept: discord.js errors carry the request body and
 * other errors may carry anything, so logging the whole object could put one of them in a log line.
 */
export function toLoggableError(error: unknown, secrets: readonly string[] = []): LoggableError {
  // What the user typed, and any value a database error quotes (row-values.ts), never reach the line.
  const scrub = (text: string) =>
    withoutRowValues(
      secrets
        .filter((secret) => secret.length >= 4)
        .reduce((out, secret) => out.split(secret).join('[redacted]'), text),
    );
  if (!(error instanceof Error)) return { type: typeof error, message: scrub(String(error)) };
  const loggable: LoggableError = { type: error.name, message: scrub(error.message) };
  if (error.stack) loggable.stack = scrub(error.stack);
  const { code, status } = error as { code?: unknown; status?: unknown };
  if (typeof code === 'string' || typeof code === 'number')
    loggable.code = typeof code === 'string' ? scrub(code) : code;
  if (typeof status === 'number') loggable.status = status;
  return loggable;
}
