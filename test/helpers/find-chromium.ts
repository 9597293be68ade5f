import { accessSync, constants } from 'node:fs';

/** Where Chromium or Chrome usually lives: Debian/Ubuntu packages, snap, Google's packages, macOS. */
const USUAL_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** The one line a developer without a browser reads. */
export const NO_BROWSER =
  'no Chromium found for the browser test: npm install brings one (the dev dependency @sparticuz/chromium, for ' +
  'Linux x64 and arm64); else install one (Debian: apt-get install chromium) or set CHROMIUM_PATH to its executable';

/** The Chromium the dev dependency @sparticuz/chromium brings, unpacked into the temporary folder at first use. */
async function bundledChromium(): Promise<string> {
  const { default: chromium } = await import('@sparticuz/chromium');
  return chromium.executablePath();
}

/**
 * The browser the preview test drives: CHROMIUM_PATH when set; else the system's (the first usual install path that
 * holds an executable), which starts fastest; else the one the dev dependency @sparticuz/chromium brings, so a fresh
 * machine needs nothing installed. TESTS_IGNORE_SYSTEM=1 passes over the system's (CI proves the bundled one so).
 * @throws Error with {@link NO_BROWSER} (or naming a CHROMIUM_PATH that is not executable) when there is none
 */
export async function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  candidates = USUAL_PATHS,
  bundled: () => Promise<string> = bundledChromium,
): Promise<string> {
  const chosen = env['CHROMIUM_PATH'];
  if (chosen) {
    if (isExecutable(chosen)) return chosen;
    throw new Error(`CHROMIUM_PATH (${chosen}) is not an executable file: ${NO_BROWSER}`);
  }
  const found = env['TESTS_IGNORE_SYSTEM'] === '1' ? undefined : candidates.find(isExecutable);
  if (found) return found;
  const unpacked = await bundled().catch(() => undefined);
  if (unpacked !== undefined && isExecutable(unpacked)) return unpacked;
  throw new Error(NO_BROWSER);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
