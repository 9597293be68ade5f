import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../src/base/config.js';

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
      },
    });
  });

  it('names a missing DISCORD_TOKEN', () => {
    const result = parseConfig({ ...valid, DISCORD_TOKEN: undefined });
    expect(result).toEqual({
      ok: false,
      problems: ['DISCORD_TOKEN is required: the bot token from the Discord developer portal'],
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
