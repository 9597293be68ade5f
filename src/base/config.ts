import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { z } from 'zod';

import { readSecretFiles } from './secret-files.js';

/**
 * The only reader of process.env (DESIGN.md). Every variable is parsed once here; a missing or malformed value
 * stops the process with one readable line per problem.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** What a process runs: the webhook intake, the feed (Discord), or both (one process, the default). */
const ROLES = ['all', 'intake', 'feed'] as const;

/** A path to a PEM file this process can read (TLS_CERT, TLS_KEY); the message names the path's role, not its content. */
const pemFile = (what: string) =>
  z.string().refine(isReadableFile, { error: `must be the path of a readable PEM file: ${what}` });

function isReadableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A TCP port, 0 (any free one) to 65535. */
const port = (what: string) =>
  z.coerce
    .number({ error: `must be ${what}` })
    .int({ error: 'must be a whole port number' })
    .min(0, { error: 'must be between 0 and 65535' })
    .max(65535, { error: 'must be between 0 and 65535' });

const httpUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, error: `must be an http(s) URL (${what})` })
    .transform((url) => url.replace(/\/+$/, ''));

const TOKEN_REQUIRED =
  'is required: the bot token from the Discord developer portal (or DISCORD_TOKEN_FILE, the path of a file holding it)';

export const ConfigSchema = z.object({
  DISCORD_TOKEN: z.string({ error: TOKEN_REQUIRED }).min(1, { error: TOKEN_REQUIRED }),
  PUBLIC_URL: z
    .url({
      protocol: /^https$/,
      error: 'must be the https:// address the service posts webhooks to, e.g. https://bot.example.com',
    })
    .transform((url) => url.replace(/\/+$/, '')),
  PORT: port('a port number').default(3000),
  METRICS_PORT: port('a port number (where GET /metrics is served, apart from PORT; unset: no metrics)').optional(),
  METRICS_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, {
      error: 'must be an address to listen on, e.g. 127.0.0.1 (the default), ::1 or 0.0.0.0 (every interface)',
    })
    .default('127.0.0.1'),
  STORE_URL: z
    .string()
    .regex(/^(sqlite:\/\/.+|memory:\/\/|postgres(ql)?:\/\/.+)$/, {
      error: 'must be sqlite://<path> (e.g. sqlite://data/bot.sqlite) or postgres://user:password@host/database',
    })
    .default('sqlite://data/bot.sqlite'),
  SERVICE_URL: httpUrl("the service's base_url, e.g. https://service.example.com"),
  DISCORD_API_URL: httpUrl('a Discord REST base override, e.g. http://127.0.0.1:9999/api').optional(),
  SECRET_KEY: z
    .string()
    .min(16, { error: 'must be at least 16 characters (it encrypts stored keys and secrets)' })
    .optional(),
  ROLE: z
    .enum(ROLES, { error: `must be one of ${ROLES.join(', ')} (all: intake and feed in one process, the default)` })
    .default('all'),
  REPLAY_WINDOW_HOURS: z.coerce
    .number({ error: 'must be a number of hours (how long posted deliveries keep their bodies for /feed replay)' })
    .int({ error: 'must be a whole number of hours' })
    .min(0, { error: 'must be between 0 (no replay) and 720 hours' })
    .max(720, { error: 'must be between 0 (no replay) and 720 hours' })
    .default(24),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  TLS_CERT: pemFile('the certificate chain, e.g. /etc/letsencrypt/live/bot.example.com/fullchain.pem').optional(),
  TLS_KEY: pemFile('its private key, e.g. /etc/letsencrypt/live/bot.example.com/privkey.pem').optional(),
});

/**
 * TLS_CERT and TLS_KEY go together: one without the other is a mistake, not plain HTTP. A process with one role
 * only shares its work with others, which needs the shared store.
 */
const CheckedConfigSchema = ConfigSchema.superRefine((config, ctx) => {
  if (config.ROLE !== 'all' && !/^postgres(ql)?:/.test(config.STORE_URL)) {
    ctx.addIssue({
      code: 'custom',
      path: ['ROLE'],
      message: `${config.ROLE} shares the work with other processes: it needs STORE_URL=postgres://… (SQLite is for one process, ROLE=all)`,
    });
  }
  if (config.METRICS_PORT !== undefined && config.METRICS_PORT !== 0 && config.METRICS_PORT === config.PORT) {
    ctx.addIssue({
      code: 'custom',
      path: ['METRICS_PORT'],
      message: 'must differ from PORT: metrics are served on a listener of their own',
    });
  }
  if ((config.TLS_CERT === undefined) === (config.TLS_KEY === undefined)) return;
  const [missing, given] = config.TLS_CERT === undefined ? ['TLS_CERT', 'TLS_KEY'] : ['TLS_KEY', 'TLS_CERT'];
  ctx.addIssue({
    code: 'custom',
    path: [missing],
    message: `is required when ${given} is set: set both to serve HTTPS, or neither`,
  });
});

export type Config = z.infer<typeof ConfigSchema>;

export type ConfigResult<C = Config> = { ok: true; config: C } | { ok: false; problems: string[] };

/**
 * Parses the environment. Empty strings count as unset, as they do in most .env files. A secret setting may be
 * given as a file instead (`DISCORD_TOKEN_FILE`, `SECRET_KEY_FILE`, `STORE_PASSWORD_FILE`: secret-files.ts).
 * Problems name the variable and say what is expected; they never echo a value (it may be a secret).
 */
export function parseConfig(env: NodeJS.ProcessEnv): ConfigResult {
  return parseWith(CheckedConfigSchema, env, new Set(Object.keys(ConfigSchema.shape)));
}

/**
 * Parses only the variables `keys` names: a tool such as deploy-commands needs the token before PUBLIC_URL
 * or SERVICE_URL are settled, and must not be refused for their absence.
 */
export function parseConfigFields<K extends keyof Config>(
  env: NodeJS.ProcessEnv,
  keys: readonly K[],
): ConfigResult<Pick<Config, K>> {
  // zod types a mask known only at run time loosely; the result holds exactly the picked keys.
  const mask = Object.fromEntries(keys.map((key) => [key, true])) as Record<keyof Config, true>;
  return parseWith(ConfigSchema.pick(mask), env, new Set<string>(keys));
}

function parseWith<C>(schema: z.ZodType<C>, env: NodeJS.ProcessEnv, wanted: ReadonlySet<string>): ConfigResult<C> {
  const given = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  // The files first: a value read from one is checked as the variable's own would be.
  const { env: present, problems: fileProblems, failed } = readSecretFiles(given, wanted);
  const parsed = schema.safeParse(present);
  if (parsed.success && fileProblems.length === 0) return { ok: true, config: parsed.data };
  const problems = (parsed.error?.issues ?? [])
    .filter((issue) => !failed.has(issue.path.join('.')))
    .map((issue) => {
      const name = issue.path.join('.');
      const missing = issue.code === 'invalid_type' && present[name] === undefined;
      return missing && !issue.message.startsWith('is required')
        ? `${name} is required: it ${issue.message}`
        : `${name} ${issue.message}`;
    });
  return { ok: false, problems: [...fileProblems, ...problems] };
}

/**
 * The process environment, with `.env` from the working directory loaded first when there is one (a host may
 * set the variables in the environment instead: systemd, a container). Variables already set win over `.env`.
 */
export function readEnvironment(): NodeJS.ProcessEnv {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return process.env;
}

/** Parses the environment or ends the process with exit code 1 and one line per problem, no stack trace. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = readEnvironment()): Config {
  return orExit(parseConfig(env));
}

/** {@link parseConfigFields}, or the end of the process as {@link loadConfigOrExit} ends it. */
export function loadConfigFieldsOrExit<K extends keyof Config>(
  keys: readonly K[],
  env: NodeJS.ProcessEnv = readEnvironment(),
): Pick<Config, K> {
  return orExit(parseConfigFields(env, keys));
}

function orExit<C>(result: ConfigResult<C>): C {
  if (result.ok) return result.config;
  process.stderr.write(
    `Configuration problems (set them in .env or the environment; see .env.example):\n${result.problems
      .map((problem) => `  - ${problem}\n`)
      .join('')}`,
  );
  process.exit(1);
}
