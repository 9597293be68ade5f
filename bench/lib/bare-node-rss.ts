import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { serverNodeFlags } from './start-flags.js';

/**
 * The RSS of a Node process that loads nothing, started with the bot process's node flags and read the way the bot
 * process's is (after two collections, once settled): what Node itself costs, so the rest of the bot's RSS at start
 * is what the bot loads and does (`feed.rss_start_ours_mb`). Linux only (/proc/self/status).
 */
export interface BareNodeRss {
  rss: number;
  rssAnon: number;
  rssFile: number;
}

const SCRIPT = `
const { readFileSync } = require('node:fs');
gc();
setImmediate(() => {
  gc();
  setTimeout(() => {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (field) => Number(new RegExp('^' + field + ':\\\\s+(\\\\d+) kB$', 'm').exec(status)[1]) * 1024;
    process.stdout.write(JSON.stringify({ rss: kb('VmRSS'), rssAnon: kb('RssAnon'), rssFile: kb('RssFile') }));
  }, 500);
});
`;

/** Runs the bare process once; undefined where /proc/self/status cannot be read. */
export async function readBareNodeRss(): Promise<BareNodeRss | undefined> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', ...serverNodeFlags(), '-e', SCRIPT]);
    return JSON.parse(stdout) as BareNodeRss;
  } catch {
    return undefined;
  }
}
