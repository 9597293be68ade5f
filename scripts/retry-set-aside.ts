/**
 * `npm run retry-set-aside [-- --job record-writer|record-sweep] [--list]`: what the batch jobs set aside, every
 * server's, and a retry at once once the cause is fixed (docs/operations.md, "Set aside"). Lists the items (job,
 * server, what, why, tries, next try; never a secret or anything a delivery said), then, unless `--list`, makes
 * each due now: the record's writer tries its deliveries within a second of the bot running, the retention sweep
 * its servers at its next hourly run. Reads STORE_URL from .env and the environment, as the bot does. On
 * PostgreSQL it runs beside the bot; on SQLite, stop the bot first (the store file admits one process).
 */
import { parseArgs } from 'node:util';

import { loadConfigFieldsOrExit } from '../src/base/config.js';
import { STORE_MODULES } from '../src/features/index.js';
import { openStore } from '../src/store/open-store.js';
import { SET_ASIDE_JOB_NAMES, type SetAsideJob } from '../src/store/set-aside.js';

/** Items listed at most: the count per job says how many there are in all. */
const LISTED = 50;

const { values } = parseArgs({
  options: { job: { type: 'string' }, list: { type: 'boolean', default: false } },
});
const job = values.job;
if (job !== undefined && !isJob(job)) fail(`--job must be one of ${SET_ASIDE_JOB_NAMES.join(', ')}`);
const { STORE_URL } = loadConfigFieldsOrExit(['STORE_URL']);

let store;
try {
  store = await openStore(STORE_URL, STORE_MODULES);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
try {
  const counts = await store.setAside.countByJob();
  const wanted = SET_ASIDE_JOB_NAMES.filter((name) => job === undefined || name === job);
  const total = wanted.reduce((sum, name) => sum + counts[name], 0);
  if (total === 0) {
    say('nothing is set aside');
  } else {
    say(`set aside: ${wanted.map((name) => `${name} ${counts[name]}`).join(', ')}`);
    const now = Date.now();
    for (const item of (await store.setAside.list(LISTED)).filter((one) => wanted.includes(one.job))) {
      const next = item.retryAt <= now ? 'due now' : `next try ${new Date(item.retryAt).toISOString()}`;
      const server = item.guildId === null ? '' : ` server ${item.guildId}:`;
      say(`  ${item.job}${server} ${item.label}: ${item.reason} (${item.attempts} failed, ${next})`);
    }
    if (values.list) {
      say('nothing changed (--list); run again without it to try them now');
    } else {
      const made = await store.setAside.retryNow(now, job);
      say(
        `${made} item(s) made due now: the record's writer tries its deliveries within a second while the bot ` +
          'runs, the retention sweep its servers at its next hourly run; /status and the metrics show what is left',
      );
    }
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await store.close();
}

function isJob(name: string): name is SetAsideJob {
  return (SET_ASIDE_JOB_NAMES as readonly string[]).includes(name);
}

function say(line: string): void {
  process.stdout.write(`retry-set-aside: ${line}\n`);
}

function fail(message: string): never {
  process.stderr.write(`retry-set-aside: ${message}\n`);
  process.exit(1);
}
