import { readFileSync } from 'node:fs';

/**
 * The secret settings a host may give as a file instead of a value (`<NAME>_FILE=<path>`), as compose and
 * Kubernetes secrets are mounted: the value never sits in the process's environment as the container shows it
 * (`docker inspect`, `/proc/<pid>/environ`), only its path.
 */
export const SECRET_FILES = {
  DISCORD_TOKEN: 'DISCORD_TOKEN_FILE',
  SECRET_KEY: 'SECRET_KEY_FILE',
} as const;

/** The password of a postgres:// STORE_URL written without one, read from a file. */
export const STORE_PASSWORD_FILE = 'STORE_PASSWORD_FILE';

/** Every variable that names a secret's file: settings the bot reads besides its schema's. */
export const SECRET_FILE_VARIABLES: readonly string[] = [...Object.values(SECRET_FILES), STORE_PASSWORD_FILE];

/**
 * The environment with each `<NAME>_FILE` read into `<NAME>` (and STORE_PASSWORD_FILE into STORE_URL's password),
 * for the settings in `wanted` only; what is wrong with them, one line each, naming the variable and the path, never
 * what the file holds; and the settings whose file failed. Empty values count as unset, as everywhere in the
 * configuration.
 */
export function readSecretFiles(
  env: Readonly<Record<string, string>>,
  wanted: ReadonlySet<string>,
): { env: Record<string, string>; problems: string[]; failed: Set<string> } {
  const read: Record<string, string> = { ...env };
  const problems: string[] = [];
  // The settings whose file could not be used: their own checks would only repeat it.
  const failed = new Set<string>();
  for (const [name, fileVariable] of Object.entries(SECRET_FILES)) {
    const path = env[fileVariable];
    if (!wanted.has(name) || path === undefined) continue;
    if (env[name] !== undefined) {
      problems.push(`${name} and ${fileVariable} are both set: set one of them`);
      failed.add(name);
      continue;
    }
    const value = readSecret(fileVariable, path, problems);
    if (value === undefined) failed.add(name);
    else read[name] = value;
  }
  const passwordPath = env[STORE_PASSWORD_FILE];
  if (wanted.has('STORE_URL') && passwordPath !== undefined) {
    const problem = storeUrlProblem(env['STORE_URL']);
    const password = problem ? undefined : readSecret(STORE_PASSWORD_FILE, passwordPath, problems);
    if (problem) problems.push(`${STORE_PASSWORD_FILE} ${problem}`);
    if (password === undefined) failed.add('STORE_URL');
    else read['STORE_URL'] = withPassword(env['STORE_URL'] ?? '', password);
  }
  return { env: read, problems, failed };
}

/** A secret file's text, less the line end an editor or `echo` leaves; undefined (and a problem) when unreadable. */
function readSecret(variable: string, path: string, problems: string[]): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    problems.push(`${variable} must be the path of a file this process can read: ${path} (${code})`);
    return undefined;
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') {
    problems.push(`${variable} names an empty file: ${path}`);
    return undefined;
  }
  return value;
}

/** Why STORE_URL cannot take a password from a file, if it cannot. */
function storeUrlProblem(storeUrl: string | undefined): string | undefined {
  if (storeUrl === undefined || !/^postgres(ql)?:\/\//.test(storeUrl)) {
    return 'is for a PostgreSQL store: set STORE_URL=postgres://user@host:5432/database (without the password)';
  }
  let url: URL;
  try {
    url = new URL(storeUrl);
  } catch {
    return 'needs a STORE_URL of the form postgres://user@host:5432/database';
  }
  if (url.password !== '') return 'is set, and STORE_URL has a password too: leave it out of STORE_URL';
  if (url.username === '') return 'needs a user in STORE_URL: postgres://user@host:5432/database';
  return undefined;
}

/** STORE_URL with `password` in it, percent-encoded as a URL's password is (node-postgres decodes it). */
function withPassword(storeUrl: string, password: string): string {
  const url = new URL(storeUrl);
  url.password = encodeURIComponent(password);
  return url.toString();
}
