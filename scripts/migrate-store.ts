/**
 * `npm run migrate-store -- --from sqlite://data/bot.sqlite --to postgres://user:pw@host/db`: copies a store to
 * another engine (typically SQLite to PostgreSQL, when one process is no longer enough): hooks with their
 * sealed secrets, every guild's settings, and every delivery still waiting or kept aside (routed again by the
 * settings on arrival). The bot must be stopped: the SQLite store refuses to open while a bot process holds it.
 * Delivery ids already posted are not copied; see the README.
 */
import { parseArgs } from 'node:util';

import { migrateStore } from './migrate-store/copy-store.js';

const USAGE = 'usage: npm run migrate-store -- --from <STORE_URL> --to <STORE_URL>';

const { values } = parseArgs({
  options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' } },
  allowPositionals: false,
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.from || !values.to) {
  process.stderr.write(`migrate-store: --from and --to are both required\n${USAGE}\n`);
  process.exit(2);
}
try {
  const copied = await migrateStore(values.from, values.to);
  process.stdout.write(
    `migrate-store: copied ${copied.hooks} hooks, ${copied.guilds} guild settings and ${copied.deliveries} open deliveries\n`,
  );
} catch (error) {
  process.stderr.write(`migrate-store: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
