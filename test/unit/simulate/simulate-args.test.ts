import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { maskUrl } from '../../../scripts/simulate/run-simulation.js';
import { sampleEvents } from '../../../scripts/simulate/sample-events.js';
import { parseSimulateArgs } from '../../../scripts/simulate/simulate-args.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const URL_ = 'https://bot.example.com/webhooks/0123456789abcdef0123456789abcdef';
const SECRET = 'whsec_very_secret_value';
const dirs: Array<{ remove: () => void }> = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const parse = (...argv: string[]) => parseSimulateArgs(argv, {});
const errorOf = (...argv: string[]) => {
  const result = parse(...argv);
  return result.kind === 'error' ? result.message : `not an error: ${result.kind}`;
};

describe('npm run simulate arguments', () => {
  it('takes url, secret, event, count and rate', () => {
    expect(parse('--url', URL_, '--secret', SECRET, '--event', 'modcall', '--count', '3', '--rate', '0.5')).toEqual({
      kind: 'run',
      options: { url: URL_, secret: SECRET, event: 'modcall', count: 3, rate: 0.5, bad: false },
    });
    expect(parse('--url', URL_, '--secret', SECRET)).toMatchObject({
      kind: 'run',
      options: { event: 'all', count: undefined, rate: 2 },
    });
    expect(parse('--help')).toEqual({ kind: 'help' });
  });

  it('reads the secret from a file or the environment, and needs none for --bad', () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const file = join(dir.path, 'secret');
    writeFileSync(file, `${SECRET}\n`);
    expect(parse('--url', URL_, '--secret-file', file)).toMatchObject({ kind: 'run', options: { secret: SECRET } });
    expect(parseSimulateArgs(['--url', URL_], { WEBHOOK_SECRET: SECRET })).toMatchObject({
      kind: 'run',
      options: { secret: SECRET },
    });
    expect(parse('--url', URL_, '--bad')).toMatchObject({ kind: 'run', options: { secret: undefined, bad: true } });
    expect(errorOf('--url', URL_, '--secret-file', join(dir.path, 'missing'))).toMatch(
      /^--secret-file: cannot read .*\(ENOENT\)$/,
    );
  });

  it('explains wrong arguments without repeating a secret', () => {
    expect(errorOf('--secret', SECRET)).toMatch(/^--url is required/);
    expect(errorOf('--url', 'ftp://x', '--secret', SECRET)).toBe('--url must be an http(s) URL');
    expect(errorOf('--url', URL_)).toMatch(/^--secret is required/);
    expect(errorOf('--url', URL_, '--secret', SECRET, '--event', 'case.deleted')).toMatch(
      /^--event must be one of case.created/,
    );
    expect(errorOf('--url', URL_, '--secret', SECRET, '--count', '0')).toBe('--count must be a whole number above 0');
    expect(errorOf('--url', URL_, '--secret', SECRET, '--count', '2.5')).toBe('--count must be a whole number above 0');
    expect(errorOf('--url', URL_, '--secret', SECRET, '--rate', 'fast')).toBe('--rate must be a number above 0');
    expect(errorOf('--url', URL_, '--bad', '--count', '2')).toMatch(/^--bad sends its own fixed set/);
    expect(errorOf('--url', URL_, '--colour', 'red')).toMatch(/Unknown option '--colour'/);
    // A secret typed with a space: the second half is a stray argument, and is not shown.
    const split = errorOf('--url', URL_, '--secret', 'first', 'half-of-the-secret');
    expect(split).toMatch(/^unexpected argument/);
    expect(split).not.toContain('half-of-the-secret');
  });
});

describe('simulator helpers', () => {
  it('hides most of the hookId of an address', () => {
    expect(maskUrl(URL_)).toBe('https://bot.example.com/webhooks/0123…');
  });

  it('makes realistic events with fresh delivery ids, ending now', () => {
    const now = Date.UTC(2026, 0, 1);
    const events = sampleEvents({ event: 'all', count: 30, now, seed: 7 });
    expect(events).toHaveLength(30);
    expect(new Set(events.map((event) => event.id)).size).toBe(30);
    expect(events.every((event) => /^dlv_sim_[0-9a-f-]{36}$/.test(event.id) && event.at <= now)).toBe(true);
    expect(events[0]?.event).toBe('session.started');
    const modcalls = sampleEvents({ event: 'modcall', count: 4, now, seed: 7 });
    expect(modcalls.map((event) => event.event)).toEqual(['modcall', 'modcall', 'modcall', 'modcall']);
  });
});
