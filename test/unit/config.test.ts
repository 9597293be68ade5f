import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { parseConfig, parseConfigFields } from '../../src/base/config.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const valid = {
  DISCORD_TOKEN: 'token',
  PUBLIC_URL: 'https://bot.example.com',
  SERVICE_URL: 'https://service.example.com',
};

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const result = parseConfig(valid);
    expect(result).toEqual({
      ok: true,
      config: {
        ...valid,
        PORT: 3000,
        METRICS_HOST: '127.0.0.1',
        STORE_URL: 'sqlite://data/bot.sqlite',
        LOG_LEVEL: 'info',
        ROLE: 'all',
        REPLAY_WINDOW_HOURS: 24,
      },
    });
  });

  it('refuses a replay window past 720 hours, or not a whole number of hours, naming the variable', () => {
    for (const value of ['721', '1.5', 'a day']) {
      const result = parseConfig({ ...valid, REPLAY_WINDOW_HOURS: value });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.problems.join('\n')).toMatch(/^REPLAY_WINDOW_HOURS must be/);
    }
    expect(parseConfig({ ...valid, REPLAY_WINDOW_HOURS: '0' })).toMatchObject({ config: { REPLAY_WINDOW_HOURS: 0 } });
  });

  it('names a missing DISCORD_TOKEN', () => {
    const result = parseConfig({ ...valid, DISCORD_TOKEN: undefined });
    expect(result).toEqual({
      ok: false,
      problems: [
        'DISCORD_TOKEN is required: the bot token from the Discord developer portal (or DISCORD_TOKEN_FILE, the path of a file holding it)',
      ],
    });
  });

  it('explains a malformed PUBLIC_URL without echoing it', () => {
    const result = parseConfig({ ...valid, PUBLIC_URL: 'http://insecure.example.com' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([expect.stringMatching(/^PUBLIC_URL must be the https:\/\/ address/)]);
    expect(result.problems.join('')).not.toContain('insecure.example.com');
  });

  it('gives one line per problem', () => {
    const result = parseConfig({ PORT: '70000', LOG_LEVEL: 'loud', SECRET_KEY: 'short' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.split(' ')[0])).toEqual([
      'DISCORD_TOKEN',
      'PUBLIC_URL',
      'PORT',
      'SERVICE_URL',
      'SECRET_KEY',
      'LOG_LEVEL',
    ]);
  });

  it('stops the process with exit code 1 and readable lines, no stack trace', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH ?? '', PUBLIC_URL: 'not a url' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('DISCORD_TOKEN is required');
    expect(run.stderr).toContain('PUBLIC_URL must be the https:// address');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('serves no metrics unless METRICS_PORT is set, and then on 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    const off = parseConfig(valid);
    expect(off.ok && off.config.METRICS_PORT).toBeUndefined();
    expect(parseConfig({ ...valid, METRICS_PORT: '9464' })).toMatchObject({
      ok: true,
      config: { METRICS_PORT: 9464, METRICS_HOST: '127.0.0.1' },
    });
    expect(parseConfig({ ...valid, METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toMatchObject({
      ok: true,
      config: { METRICS_PORT: 9464, METRICS_HOST: '0.0.0.0' },
    });
    // Empty counts as unset, as in a .env file.
    expect(parseConfig({ ...valid, METRICS_PORT: '' })).toMatchObject({ ok: true, config: { PORT: 3000 } });
  });

  it('refuses a bad METRICS_PORT or METRICS_HOST with a line that says what is expected', () => {
    expect(parseConfig({ ...valid, METRICS_PORT: 'nine' })).toEqual({
      ok: false,
      problems: [
        'METRICS_PORT must be a port number (where GET /metrics is served, apart from PORT; unset: no metrics)',
      ],
    });
    expect(parseConfig({ ...valid, METRICS_PORT: '70000' })).toEqual({
      ok: false,
      problems: ['METRICS_PORT must be between 0 and 65535'],
    });
    expect(parseConfig({ ...valid, METRICS_PORT: '94.5' })).toEqual({
      ok: false,
      problems: ['METRICS_PORT must be a whole port number'],
    });
    expect(parseConfig({ ...valid, PORT: '8080', METRICS_PORT: '8080' })).toEqual({
      ok: false,
      problems: ['METRICS_PORT must differ from PORT: metrics are served on a listener of their own'],
    });
    expect(parseConfig({ ...valid, METRICS_PORT: '9464', METRICS_HOST: 'http://example.com/' })).toEqual({
      ok: false,
      problems: [
        'METRICS_HOST must be an address to listen on, e.g. 127.0.0.1 (the default), ::1 or 0.0.0.0 (every interface)',
      ],
    });
  });

  it('takes postgres:// and a role, and refuses a one-role process on SQLite', () => {
    const shared = { ...valid, STORE_URL: 'postgres://bridge:pw@db.example/bridge', ROLE: 'intake' };
    expect(parseConfig(shared)).toMatchObject({ ok: true, config: { ROLE: 'intake' } });
    expect(parseConfig({ ...valid, ROLE: 'feed' })).toEqual({
      ok: false,
      problems: [
        'ROLE feed shares the work with other processes: it needs STORE_URL=postgres://… (SQLite is for one process, ROLE=all)',
      ],
    });
    const wrong = parseConfig({ ...valid, ROLE: 'worker' });
    expect(wrong.ok).toBe(false);
    expect(JSON.stringify(wrong)).toContain('ROLE must be one of all, intake, feed');
  });
});

describe('secret settings read from files (compose and Kubernetes secrets)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    dir = makeTempDir('bridge-secrets-');
  });
  afterEach(() => dir.remove());

  /** A file holding `text`, as `echo`, an editor or a secret mount leaves it. */
  const secretFile = (name: string, text: string) => {
    const path = join(dir.path, name);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };

  it('reads DISCORD_TOKEN_FILE and SECRET_KEY_FILE, less the line end the file ends with', () => {
    const result = parseConfig({
      ...valid,
      DISCORD_TOKEN: undefined,
      DISCORD_TOKEN_FILE: secretFile('discord_token', 'MTIz.token-from-a-file\n'),
      SECRET_KEY_FILE: secretFile('secret_key', 'a-secret-key-of-32-characters-ok\r\n'),
    });
    expect(result).toMatchObject({
      ok: true,
      config: { DISCORD_TOKEN: 'MTIz.token-from-a-file', SECRET_KEY: 'a-secret-key-of-32-characters-ok' },
    });
  });

  it("puts STORE_PASSWORD_FILE's password into a postgres:// STORE_URL, as node-postgres reads it back", () => {
    const password = 'p@ss:w/rd%#?&= é';
    const result = parseConfig({
      ...valid,
      STORE_URL: 'postgres://bridge@db.internal:5432/bridge',
      STORE_PASSWORD_FILE: secretFile('postgres_password', `${password}\n`),
    });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    const client = new pg.Client({ connectionString: result.config.STORE_URL });
    expect({ user: client.user, password: client.password, host: client.host, database: client.database }).toEqual({
      user: 'bridge',
      password,
      host: 'db.internal',
      database: 'bridge',
    });
  });

  it('says in one line each what is wrong with a file, naming the variable and the path, never the content', () => {
    const unreadable = secretFile('unreadable', 'never-shown-secret-0123456789');
    chmodSync(unreadable, 0o000);
    const canRead = spawnSync('cat', [unreadable]).status === 0; // root reads anything: then test a missing file
    const token = canRead ? join(dir.path, 'missing') : unreadable;
    const result = parseConfig({
      ...valid,
      DISCORD_TOKEN: undefined,
      DISCORD_TOKEN_FILE: token,
      SECRET_KEY: 'a-key-given-twice-0123456789',
      SECRET_KEY_FILE: secretFile('secret_key', 'a-key-given-twice-0123456789'),
      STORE_PASSWORD_FILE: secretFile('empty', '\n'),
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        `DISCORD_TOKEN_FILE must be the path of a file this process can read: ${token} (${canRead ? 'ENOENT' : 'EACCES'})`,
        'SECRET_KEY and SECRET_KEY_FILE are both set: set one of them',
        'STORE_PASSWORD_FILE is for a PostgreSQL store: set STORE_URL=postgres://user@host:5432/database (without the password)',
      ],
    });
    expect(JSON.stringify(result)).not.toContain('never-shown-secret');
    expect(JSON.stringify(result)).not.toContain('a-key-given-twice');
  });

  it('checks a value read from a file as its variable is checked, and refuses an empty file or a second password', () => {
    expect(parseConfig({ ...valid, SECRET_KEY_FILE: secretFile('short', 'too-short\n') })).toEqual({
      ok: false,
      problems: ['SECRET_KEY must be at least 16 characters (it encrypts stored keys and secrets)'],
    });
    const empty = secretFile('empty', '\n');
    expect(parseConfig({ ...valid, DISCORD_TOKEN: undefined, DISCORD_TOKEN_FILE: empty })).toEqual({
      ok: false,
      problems: [`DISCORD_TOKEN_FILE names an empty file: ${empty}`],
    });
    expect(
      parseConfig({
        ...valid,
        STORE_URL: 'postgres://bridge:already@db.internal/bridge',
        STORE_PASSWORD_FILE: secretFile('postgres_password', 'another'),
      }),
    ).toEqual({
      ok: false,
      problems: ['STORE_PASSWORD_FILE is set, and STORE_URL has a password too: leave it out of STORE_URL'],
    });
  });

  it("reads only the files of the settings a tool asks for (deploy-commands: the token, not the store's password)", () => {
    const result = parseConfigFields(
      {
        DISCORD_TOKEN_FILE: secretFile('discord_token', 'token-for-deploy'),
        STORE_PASSWORD_FILE: join(dir.path, 'not-there'),
      },
      ['DISCORD_TOKEN', 'DISCORD_API_URL'],
    );
    expect(result).toEqual({ ok: true, config: { DISCORD_TOKEN: 'token-for-deploy' } });
  });
});
