/** PostgreSQL's SQLSTATE classes of a server that cannot work now: connection, resources, operator, rollback. */
const UNAVAILABLE_CLASSES = ['08', '40', '53', '57'];
/** SQLite's codes of a file it cannot work on now (extended codes start with these). */
const SQLITE_UNAVAILABLE = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_CANTOPEN'];
/** Node's codes of a connection that failed. */
const NETWORK_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'];
/** node-postgres' own errors for a connection lost or not made: they carry no code. */
const PG_CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Connection refused/;

/**
 * Whether `error` says the store cannot work at all now (a database down, restarting or out of connections, a
 * locked or full SQLite file), rather than that one item's write failed. A batch job sets an item aside only for
 * the second kind: when the store is down, every item would fail alike, and the job is tried again as a whole.
 */
export function isStoreUnavailable(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string') {
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
    if (SQLITE_UNAVAILABLE.some((prefix) => code.startsWith(prefix))) return true;
    if (NETWORK_CODES.includes(code)) return true;
  }
  return error instanceof Error && PG_CONNECTION_MESSAGES.test(error.message);
}
