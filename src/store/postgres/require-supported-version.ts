import { StartupError } from '../../base/startup-error.js';

/** PostgreSQL 14: `idle_session_timeout` (the lease session), and what the migrations and functions rely on. */
export const OLDEST_SUPPORTED_VERSION_NUM = 140_000;

/** What reading the server's version needs of a connection. */
export interface Queryable {
  query<Row extends object>(text: string): Promise<{ rows: Row[] }>;
}

/**
 * Refuses a server older than PostgreSQL 14 at start, with one line, before any migration runs on it.
 * @throws StartupError naming the server's version and the one needed
 */
export async function requireSupportedVersion(client: Queryable): Promise<void> {
  const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
  const versionNum = Number(rows[0]?.server_version_num);
  if (versionNum >= OLDEST_SUPPORTED_VERSION_NUM) return;
  const major = Math.floor(versionNum / 10_000);
  throw new StartupError(
    `the PostgreSQL server that STORE_URL names is version ${Number.isFinite(major) ? major : 'unknown'}: the bot needs PostgreSQL 14 or newer`,
  );
}
