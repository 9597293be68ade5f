/**
 * `npm run migrate-store -- --from sqlite://data/bot.sqlite --to postgres://user:pw@host/db`: copies a store to
 * another engine (typically SQLite to PostgreSQL, when one process is no longer enough): hooks with their
 * sealed secrets, every guild's settings, and every delivery still waiting or kept aside (routed again by the
 * settings on arrival, with the message each was written down for), the delivery ids posted in the last day (so
 * the service's retries stay duplicates), the features' documents (cards, alerts, developer keys…), what each
 * feature's store module keeps (the audit log, the community record, /duty's settings, quotas and digests) and
 * each hook's activity. The bot must be stopped: the SQLite store refuses to open while a bot process
 * holds it.
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
    `migrate-store: copied ${copied.hooks} hooks, ${copied.guilds} guild settings, ${copied.documents} documents, ` +
      copied.modules.map(({ copied: count, counted }) => `${count} ${counted}, `).join('') +
      `${copied.postedIds} posted delivery ids and ` +
      `${copied.openDeliveries} open deliveries (${copied.writtenDown} written-down messages kept with their nonce)\n`,
  );
  if (copied.writtenDownLost > 0) {
    process.stdout.write(
      `migrate-store: ${copied.writtenDownLost} written-down messages now go to another channel by the copied ` +
        'settings; they are sent again there under a new nonce (Discord may show them twice)\n',
    );
  }
} catch (error) {
  process.stderr.write(`migrate-store: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
