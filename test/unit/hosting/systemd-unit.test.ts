import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { makeTempDir } from '../../helpers/temp-dir.js';
import { readProjectFile, ROOT } from './read-container-files.js';

/**
 * The systemd unit of docs/hosting.md works as written on a fresh machine: it parses (systemd-analyze verify), and
 * every user, folder and program it names is one the documented install steps make or the machine has. What cannot
 * run here (systemd itself, useradd on a shared machine) is held to the steps' own text.
 */

const hosting = readProjectFile('docs/hosting.md');
const packageJson = JSON.parse(readProjectFile('package.json')) as { scripts: Record<string, string> };

/** The first fenced block of `language` after the heading `heading`. */
function blockAfter(heading: string, language: string): string {
  const start = hosting.indexOf(`\n## ${heading}\n`);
  expect(start, `docs/hosting.md has a section "${heading}"`).toBeGreaterThan(0);
  const open = hosting.indexOf(`\`\`\`${language}\n`, start);
  const close = hosting.indexOf('\n```', open + 1);
  return hosting.slice(open + language.length + 4, close + 1);
}

const unit = blockAfter('A systemd unit', 'ini');
const install = blockAfter('A production install', 'sh');
const upgrade = blockAfter('Upgrading', 'sh');

/** The unit's settings of [Service] (the last of each key), comments left out. */
const service = Object.fromEntries(
  (unit.split('[Service]')[1]?.split('\n[')[0] ?? '')
    .split('\n')
    .filter((line) => /^[A-Za-z]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

/** The install's commands, one a line (comments dropped), with `sudo ` left out. */
const steps = install
  .split('\n')
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line !== '' && !line.startsWith('#'))
  .map((line) => line.replace(/^sudo /, ''));

const dir = makeTempDir('bridge-systemd-');
afterAll(() => dir.remove());

describe('the systemd unit of docs/hosting.md', () => {
  it('parses: systemd-analyze verify finds no error and no unknown setting', () => {
    const file = join(dir.path, 'service-discord-bridge.service');
    writeFileSync(file, unit);
    const analyze = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    if (analyze.error) {
      // Not every machine has systemd's tools; CI's does, and must prove the unit.
      expect(process.env['CI'], 'systemd-analyze is needed in CI').toBeUndefined();
      process.stderr.write('systemd-analyze not found: the unit is checked against the install steps only\n');
      return;
    }
    expect({ status: analyze.status, stderr: analyze.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('runs as the user the install creates, in the folder it clones into', () => {
    const useradd = steps.find((step) => step.startsWith('useradd '));
    expect(useradd).toMatch(/--system/);
    expect(useradd).toMatch(/--user-group/);
    const user = useradd?.split(' ').at(-1);
    expect(service['User']).toBe(user);
    expect(service['Group']).toBe(user);
    const clone = steps.find((step) => step.startsWith('git clone '));
    expect(clone).toMatch(
      new RegExp(`^git clone .+ ${service['WorkingDirectory']} && cd ${service['WorkingDirectory']}$`),
    );
    // The folder is made for you first (git clones into an empty folder), so the clone needs no sudo.
    expect(steps).toContain(`install -d -o "$USER" -g "$(id -gn)" ${service['WorkingDirectory']}`);
  });

  it('writes only folders the install makes for its user, and backs up into one of them', () => {
    const writable = (service['ReadWritePaths'] ?? '').split(' ');
    expect(writable.length).toBeGreaterThan(0);
    const made = steps
      .filter((step) => step.startsWith(`install -d -o ${service['User']} -g ${service['Group']} -m 700 `))
      .flatMap((step) => step.split(' ').slice(8))
      .map((folder) => `${service['WorkingDirectory']}/${folder}`);
    for (const path of writable) expect(made, path).toContain(path);
    // The upgrade's backup runs as that user, into a folder made for it (scripts/backup-store makes one missing).
    const backup = upgrade.split('\n').find((line) => line.includes('scripts/launch.js backup'));
    expect(backup).toMatch(new RegExp(`^sudo -u ${service['User']} node scripts/launch.js backup backups/.+\\.sqlite`));
    expect(made).toContain(`${service['WorkingDirectory']}/backups`);
  });

  it("starts npm start's own command through a Node the machine finds, with files the repository has", () => {
    const [program, ...args] = (service['ExecStart'] ?? '').split(' ');
    expect(program).toBe('/usr/bin/env');
    expect(existsSync(program ?? '')).toBe(true);
    // Exactly what npm start runs (and the image: container-files.test.ts), its Node found on systemd's PATH.
    expect(args.join(' ')).toBe(packageJson.scripts['start']);
    const script = args.find((arg) => arg.endsWith('.js'));
    expect(script).toBe('scripts/launch.js');
    expect(existsSync(join(ROOT, script ?? ''))).toBe(true);
    // The Node env finds here runs the launcher's first step, the Node check, as the unit would.
    const check = spawnSync('/usr/bin/env', ['node', 'scripts/check-node.cjs'], {
      cwd: ROOT,
      env: { PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` },
      encoding: 'utf8',
    });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('names no library or file a fresh machine lacks outside a comment', () => {
    for (const line of unit.split('\n').filter((text) => !text.startsWith('#'))) {
      for (const [, path = ''] of line.matchAll(/(?:^|[\s=])(\/[\w./-]+)/g)) {
        if (path.startsWith(service['WorkingDirectory'] ?? '/none')) continue;
        // The unit's own path is where the docs put it; /usr/bin/env is on every Linux.
        expect(['/usr/bin/env'], `${path} in "${line}"`).toContain(path);
      }
    }
  });
});
