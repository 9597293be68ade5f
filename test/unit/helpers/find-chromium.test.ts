import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { findChromium, NO_BROWSER } from '../../helpers/find-chromium.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const dirs: Array<ReturnType<typeof makeTempDir>> = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

function fakeBrowser(name: string, mode = 0o755): string {
  const dir = makeTempDir();
  dirs.push(dir);
  const path = join(dir.path, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, mode);
  return path;
}

describe('the browser test finds a browser', () => {
  it('takes CHROMIUM_PATH first', () => {
    const chosen = fakeBrowser('my-chromium');
    expect(findChromium({ CHROMIUM_PATH: chosen }, [fakeBrowser('other')])).toBe(chosen);
  });

  it('refuses a CHROMIUM_PATH that cannot run, saying how to get one', () => {
    const notExecutable = fakeBrowser('chromium', 0o644);
    expect(() => findChromium({ CHROMIUM_PATH: notExecutable }, [])).toThrow(`CHROMIUM_PATH (${notExecutable})`);
  });

  it('else looks in the usual install paths, in order', () => {
    const second = fakeBrowser('chromium-browser');
    expect(findChromium({}, ['/nonexistent/chromium', second])).toBe(second);
  });

  it('fails with one line saying how to install one when there is none', () => {
    expect(() => findChromium({}, ['/nonexistent/chromium'])).toThrow(NO_BROWSER);
    expect(NO_BROWSER).not.toContain('\n');
    expect(NO_BROWSER).toContain('apt-get install chromium');
  });
});
