import { StartupError } from '../../base/startup-error.js';

/** Errors of the network or the operating system that mean "nothing answers there". */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET']);
/** SQLSTATEs the server answers a connection with: the host must fix STORE_URL or the server. */
const REFUSED = new Set(['28P01', '28000', '3D000', '53300', '57P03']);

/**
 * The one line for a PostgreSQL that cannot be connected to at start: the store, where (host:port, never the
 * password or the whole URL), why, and what to check. Errors that are not about connecting are returned as
 * they are.
 */
export function explainConnectFailure(storeUrl: string, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  let why: string;
  if (code !== undefined && UNREACHABLE.has(code)) why = code;
  else if (code !== undefined && REFUSED.has(code)) why = error.message;
  else if (/timeout/i.test(error.message)) why = 'no answer in time';
  else return error;
  return new StartupError(
    `cannot connect to PostgreSQL at ${serverOf(storeUrl)} (${why}): check that the server runs and accepts connections there, and STORE_URL`,
  );
}

function serverOf(storeUrl: string): string {
  try {
    const url = new URL(storeUrl);
    const host = url.searchParams.get('host') ?? url.hostname;
    return `${host || 'localhost'}:${url.port || '5432'}`;
  } catch {
    return 'the address in STORE_URL';
  }
}
