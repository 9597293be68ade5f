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
      config: { ...valid, PORT: 3000, STORE_URL: 'sqlite://data/bot.sqlite', LOG_LEVEL: 'info', ROLE: 'all' },
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
