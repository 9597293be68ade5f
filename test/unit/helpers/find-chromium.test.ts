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

const noBundled = () => Promise.reject(new Error('no bundled browser here'));

describe('the browser test finds a browser', () => {
  it('takes CHROMIUM_PATH first', async () => {
    const chosen = fakeBrowser('my-chromium');
    expect(await findChromium({ CHROMIUM_PATH: chosen }, [fakeBrowser('other')], noBundled)).toBe(chosen);
  });

  it('refuses a CHROMIUM_PATH that cannot run, saying how to get one', async () => {
    const notExecutable = fakeBrowser('chromium', 0o644);
    await expect(findChromium({ CHROMIUM_PATH: notExecutable }, [], noBundled)).rejects.toThrow(
      `CHROMIUM_PATH (${notExecutable})`,
    );
  });

  it("else looks in the usual install paths, in order, before the dev dependency's", async () => {
    const second = fakeBrowser('chromium-browser');
    const bundled = fakeBrowser('bundled');
    expect(await findChromium({}, ['/nonexistent/chromium', second], () => Promise.resolve(bundled))).toBe(second);
  });

  it("takes the dev dependency's when the system has none, or when told to ignore the system's", async () => {
    const system = fakeBrowser('chromium');
    const bundled = fakeBrowser('bundled');
    expect(await findChromium({}, ['/nonexistent/chromium'], () => Promise.resolve(bundled))).toBe(bundled);
    expect(await findChromium({ TESTS_IGNORE_SYSTEM: '1' }, [system], () => Promise.resolve(bundled))).toBe(bundled);
  });

  it('fails with one line saying how to get one when there is none', async () => {
    await expect(findChromium({}, ['/nonexistent/chromium'], noBundled)).rejects.toThrow(NO_BROWSER);
    expect(NO_BROWSER).not.toContain('\n');
    expect(NO_BROWSER).toContain('apt-get install chromium');
  });
});
