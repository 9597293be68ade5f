import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

import { JEMALLOC_CONF } from '../../../bench/lib/jemalloc.js';
import { ConfigSchema, parseConfig } from '../../../src/base/config.js';
import { SECRET_FILE_VARIABLES } from '../../../src/base/secret-files.js';
import { startBot } from '../../../src/bot.js';
import { captureLogs } from '../../helpers/capture-logs.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { testConfig } from '../../helpers/test-config.js';
import {
  argsOf,
  composeEnvironment,
  composeService,
  composeTopLevelSecrets,
  execForm,
  readCopy,
  readDockerfileStages,
  readProjectFile,
  ROOT,
  type Instruction,
} from './read-container-files.js';

/**
 * The Dockerfile and compose.yaml cannot be built or run here (no image pulls): these tests hold what they name
 * (files, scripts, the start command, the port, /healthz, the variables) to what the project really has, so a
 * rename on one side fails here instead of in a host's first deploy.
 */

const run = promisify(execFile);
const packageJson = JSON.parse(readProjectFile('package.json')) as {
  scripts: Record<string, string>;
  engines: { node: string };
};
const stages = readDockerfileStages(readProjectFile('Dockerfile'));
const build = stages[0] ?? [];
const runtime = stages.at(-1) ?? [];
const compose = readProjectFile('compose.yaml');
const BOT_SERVICES = ['bot', 'intake', 'feed'];
/** What a host's .env gives every bot service (compose.yaml's env_file); the services' own environment wins. */
const HOST_ENV = {
  PUBLIC_URL: 'https://bot.example.test',
  SERVICE_URL: 'https://service.example.test',
};

/** What the secret files hold in these tests, by secret name: each read the way /run/secrets/<name> is. */
const SECRET_VALUES: Record<string, string> = {
  discord_token: 'token-from-the-secret',
  secret_key: 'secret-key-from-the-secret-0123',
  postgres_password: 'postgres-password',
};
const secretsDir = makeTempDir('bridge-compose-secrets-');
afterAll(() => secretsDir.remove());

/** The secrets a compose service names (`secrets: [a, b]`). */
function serviceSecrets(service: string): string[] {
  const list = /^ {4}secrets: \[([^\]]*)\]$/m.exec(service)?.[1] ?? '';
  return list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** The environment with each /run/secrets/<name> a service mounts replaced by a file holding that secret. */
function withSecretFiles(environment: Record<string, string>, mounted: string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => {
      const name = /^\/run\/secrets\/(\w+)$/.exec(value)?.[1];
      if (name === undefined) return [key, value];
      expect(mounted, `${key} reads a secret the service mounts`).toContain(name);
      const file = join(secretsDir.path, name);
      writeFileSync(file, `${SECRET_VALUES[name] ?? ''}\n`);
      return [key, file];
    }),
  );
}

function only(stage: Instruction[], keyword: string): string {
  const found = argsOf(stage, keyword);
  expect(found, `one ${keyword} in the stage`).toHaveLength(1);
  return found[0] ?? '';
}

/** The variables the runtime stage sets with `ENV KEY=value` (one or several a line). */
function runtimeEnv(): Record<string, string> {
  const pairs = argsOf(runtime, 'ENV').flatMap((args) =>
    [...args.matchAll(/([A-Z_]+)=(\S+)/g)].map((match): [string, string] => [match[1] ?? '', match[2] ?? '']),
  );
  return Object.fromEntries(pairs);
}

describe('Dockerfile', () => {
  it('starts the bot with exactly what `npm start` runs, in exec form so SIGTERM reaches node', () => {
    expect(execForm(only(runtime, 'CMD'))).toEqual(packageJson.scripts.start?.split(' '));
    expect(only(runtime, 'STOPSIGNAL')).toBe('SIGTERM');
    expect(argsOf(runtime, 'ENTRYPOINT')).toEqual([]);
  });

  it('runs on the Node 24 slim image in both stages: the Node CI runs everything on, which `engines` names', () => {
    expect(stages).toHaveLength(2);
    expect(only(build, 'FROM')).toBe('node:24-bookworm-slim AS build');
    expect(only(runtime, 'FROM')).toBe('node:24-bookworm-slim');
    expect(readProjectFile('.ci/run')).toMatch(/^node_dir="\$\(\.ci\/install-node 24 /m);
    expect(readProjectFile('.ci/run')).toMatch(/^\.ci\/test-on-node 22$/m);
    expect(packageJson.engines.node.split('||').map((range) => range.trim())).toContain('^24.0.0');
  });

  it("builds with the project's own scripts, then keeps the production dependencies only", () => {
    const runs = argsOf(build, 'RUN');
    expect(runs).toContain('npm ci --no-audit --no-fund');
    expect(runs).toContain('npm run build');
    expect(packageJson.scripts.build).toBe('node scripts/check-node.cjs && tsc -p tsconfig.build.json');
    expect(runs.at(-1)).toBe('npm ci --omit=dev --no-audit --no-fund');
    // Nothing is compiled: no runtime dependency has an install script (better-sqlite3 and resvg ship prebuilt
    // Node-API binaries inside their packages), so the image needs no compiler.
    expect(runs.some((line) => /apt-get|g\+\+/.test(line))).toBe(false);
    const lock = JSON.parse(readProjectFile('package-lock.json')) as {
      packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }>;
    };
    const scripted = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path, entry]) => ({ path, name: path.replace(/^.*node_modules\//, ''), dev: entry.dev === true }));
    expect(scripted.filter((entry) => !entry.dev)).toEqual([]);
    // allowScripts (npm 11.16 and later warn of a dependency's install script it does not list; npm 12 skips
    // them): every entry names a package that has one, and every such package installed here is listed.
    const allowScripts = (packageJson as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    for (const name of Object.keys(allowScripts)) {
      expect(
        scripted.map((entry) => entry.name),
        `allowScripts.${name}`,
      ).toContain(name);
    }
    for (const entry of scripted.filter((candidate) => existsSync(ROOT + candidate.path))) {
      expect(Object.keys(allowScripts), entry.path).toContain(entry.name);
    }
  });

  it('copies into the build every file the build compiles, and only files that exist', () => {
    const copied = argsOf(build, 'COPY').flatMap((args) => readCopy(args).sources);
    for (const source of copied) expect(existsSync(ROOT + source), source).toBe(true);
    const buildConfig = JSON.parse(readProjectFile('tsconfig.build.json')) as { extends: string; include: string[] };
    const needed = [...buildConfig.include, buildConfig.extends.replace(/^\.\//, ''), 'package-lock.json'];
    for (const path of needed) {
      expect(
        copied.some((source) => path === source || path.startsWith(`${source}/`)),
        `${path} is copied into the build stage`,
      ).toBe(true);
    }
  });

  it('lets only those files into the build context (.dockerignore): never .env or data/', () => {
    const ignore = readProjectFile('.dockerignore')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(ignore[0]).toBe('*');
    const allowed = ignore.filter((line) => line.startsWith('!')).map((line) => line.slice(1));
    const copied = argsOf(build, 'COPY').flatMap((args) => readCopy(args).sources);
    // A file copied ahead of its folder (the Node check, before npm ci) is let in with that folder.
    const inCopiedFolder = (path: string) => copied.some((source) => path.startsWith(`${source}/`));
    expect(allowed.toSorted()).toEqual(copied.filter((source) => !inCopiedFolder(source)).toSorted());
    expect(allowed).not.toContain('.env');
    expect(allowed).not.toContain('data');
  });

  it('gives the runtime what the production-install check installs and starts (scripts/check-production-install.ts)', () => {
    const check = readProjectFile('scripts/check-production-install.ts');
    const installed = /for \(const path of \[([^\]]+)\]\)/.exec(check)?.[1]?.match(/'[^']+'/g);
    expect(installed, 'the list of paths scripts/check-production-install.ts copies').toBeDefined();
    const copies = argsOf(runtime, 'COPY').map(readCopy);
    expect(copies.every((copy) => copy.from === 'build')).toBe(true);
    const shipped = copies.flatMap((copy) => copy.sources.map((source) => source.replace(/^\/app\//, '')));
    for (const path of installed ?? []) expect(shipped).toContain(path.slice(1, -1));
    expect(shipped).toContain('node_modules');
    expect(readProjectFile('scripts/launch.js')).toContain("bot: 'dist/src/main.js'");
  });

  it('runs as the unprivileged node user, with data/ (where the default SQLite store lives) as a volume', () => {
    expect(only(runtime, 'USER')).toBe('node');
    expect(only(runtime, 'WORKDIR')).toBe('/app');
    expect(only(runtime, 'VOLUME')).toBe('["/app/data"]');
    expect(argsOf(runtime, 'RUN')).toContain('mkdir data && chown node:node data');
    expect(ConfigSchema.shape.STORE_URL.parse(undefined)).toBe('sqlite://data/bot.sqlite');
  });

  it('serves on the port it exposes, the default PORT, and sets only variables the bot reads', () => {
    const env = runtimeEnv();
    expect(env.PORT).toBe(String(ConfigSchema.shape.PORT.parse(undefined)));
    expect(only(runtime, 'EXPOSE')).toBe(env.PORT);
    const known = new Set([...Object.keys(ConfigSchema.shape), 'NODE_ENV', 'LD_PRELOAD', 'MALLOC_CONF']);
    for (const name of Object.keys(env)) expect(known, name).toContain(name);
  });

  it('runs the bot on jemalloc, installed and linked where LD_PRELOAD names it, with the settings the benchmark measures', () => {
    const env = runtimeEnv();
    expect(env.MALLOC_CONF).toBe(JEMALLOC_CONF);
    const install = argsOf(runtime, 'RUN').find((line) => line.includes('libjemalloc2'));
    expect(install).toContain('apt-get install -y --no-install-recommends libjemalloc2');
    expect(install).toMatch(new RegExp(`ln -s .+ ${env.LD_PRELOAD ?? '(unset)'}$`));
    // Set before USER, so every process of the container (the health check's node too) starts on it.
    expect(runtime.findIndex((instruction) => instruction.args.startsWith('LD_PRELOAD='))).toBeLessThan(
      runtime.findIndex((instruction) => instruction.keyword === 'USER'),
    );
  });

  it("checks health with the bot's real /healthz through node's fetch: healthy passes, no answer fails", async () => {
    const healthcheck = execForm(only(runtime, 'HEALTHCHECK'));
    const [command, ...args] = healthcheck ?? [];
    expect(command).toBe('node');
    expect(args.join(' ')).toContain('/healthz');
    const bot = await startBot({
      config: testConfig({ PORT: 0 }),
      logger: captureLogs('silent').logger,
      host: '127.0.0.1',
      feed: false,
    });
    const check = () =>
      run(process.execPath, args, { env: { PATH: process.env.PATH, PORT: String(bot.http.port) } }).then(
        () => 0,
        (error: { code?: number }) => error.code,
      );
    try {
      expect(await check()).toBe(0);
    } finally {
      await bot.stop();
    }
    expect(await check()).toBe(1);
  });
});

describe('compose.yaml', () => {
  it('runs PostgreSQL 17 on a named volume, with a pg_isready health check', () => {
    const postgres = composeService(compose, 'postgres');
    expect(postgres).toContain('image: postgres:17');
    expect(postgres).toMatch(/test: \['CMD-SHELL', 'pg_isready -U bridge -d bridge'\]/);
    expect(postgres).toContain('- postgres-data:/var/lib/postgresql/data');
    expect(compose).toMatch(/^volumes:\n {2}postgres-data:/m);
  });

  it.each(BOT_SERVICES)('%s: starts once the database is healthy, with a configuration the bot accepts', (name) => {
    const service = composeService(compose, name);
    expect(service).toContain('build: .');
    expect(service).toContain('env_file: .env');
    expect(service).toMatch(/depends_on:\n {6}postgres:\n {8}condition: service_healthy/);
    const environment = composeEnvironment(service);
    const known = [...Object.keys(ConfigSchema.shape), ...SECRET_FILE_VARIABLES];
    for (const key of Object.keys(environment)) expect(known).toContain(key);
    // The password is the postgres_password secret's, read from its file; the URL holds none.
    expect(environment.STORE_URL).toBe('postgres://bridge@postgres:5432/bridge');
    // The published port's container side is the PORT the process listens on.
    const published = [...service.matchAll(/- 127\.0\.0\.1:[\d-]+:(\d+)/g)].map((match) => match[1]);
    for (const port of published) expect(port).toBe(environment.PORT);
    const parsed = parseConfig({ ...HOST_ENV, ...withSecretFiles(environment, serviceSecrets(service)) });
    expect(parsed.ok ? parsed.config.ROLE : parsed.problems).toBe(environment.ROLE);
    expect(parsed.ok && parsed.config.STORE_URL).toBe('postgres://bridge:postgres-password@postgres:5432/bridge');
  });

  it.each(BOT_SERVICES)(
    '%s: takes every secret from a file, so none is in the environment docker inspect shows',
    (name) => {
      const service = composeService(compose, name);
      const environment = composeEnvironment(service);
      expect(Object.keys(environment)).not.toContain('DISCORD_TOKEN');
      expect(Object.keys(environment)).not.toContain('SECRET_KEY');
      expect(environment).toMatchObject({
        DISCORD_TOKEN_FILE: '/run/secrets/discord_token',
        SECRET_KEY_FILE: '/run/secrets/secret_key',
        STORE_PASSWORD_FILE: '/run/secrets/postgres_password',
      });
      expect(serviceSecrets(service).toSorted()).toEqual(['discord_token', 'postgres_password', 'secret_key']);
      // What .env.example gives a host leaves the secrets empty: a value there beside its file is refused.
      const example = readProjectFile('.env.example');
      expect(example).toMatch(/^DISCORD_TOKEN=$/m);
      expect(example).toMatch(/^SECRET_KEY=$/m);
    },
  );

  it('mounts each secret from a file of ./secrets, the database password for PostgreSQL too', () => {
    expect(composeTopLevelSecrets(compose)).toEqual({
      discord_token: './secrets/discord_token',
      secret_key: './secrets/secret_key',
      postgres_password: './secrets/postgres_password',
    });
    const postgres = composeService(compose, 'postgres');
    expect(composeEnvironment(postgres)).toMatchObject({ POSTGRES_PASSWORD_FILE: '/run/secrets/postgres_password' });
    expect(composeEnvironment(postgres)).not.toHaveProperty('POSTGRES_PASSWORD');
    expect(serviceSecrets(postgres)).toEqual(['postgres_password']);
    expect(compose).not.toContain('${POSTGRES_PASSWORD');
  });

  it('runs one process by default, and two intake and two feed processes in the split profile', () => {
    expect(composeService(compose, 'bot')).not.toContain('profiles:');
    for (const [name, role] of [
      ['intake', 'intake'],
      ['feed', 'feed'],
    ] as const) {
      const service = composeService(compose, name);
      expect(service).toContain('profiles: [split]');
      expect(service).toMatch(/deploy:\n {6}replicas: 2/);
      expect(composeEnvironment(service).ROLE).toBe(role);
    }
  });
});
