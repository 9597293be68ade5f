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
  'no Chromium found for the browser test: install one (Debian: apt-get install chromium; .ci/run does) ' +
  'or set CHROMIUM_PATH to its executable';

/**
 * The browser the preview test drives: CHROMIUM_PATH when set, else the first usual install path that holds an
 * executable. playwright-core brings no browser of its own.
 * @throws Error with {@link NO_BROWSER} (or naming a CHROMIUM_PATH that is not executable) when there is none
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, candidates = USUAL_PATHS): string {
  const chosen = env['CHROMIUM_PATH'];
  if (chosen) {
    if (isExecutable(chosen)) return chosen;
    throw new Error(`CHROMIUM_PATH (${chosen}) is not an executable file: ${NO_BROWSER}`);
  }
  const found = candidates.find(isExecutable);
  if (!found) throw new Error(NO_BROWSER);
  return found;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
