/**
 * `npm run backup -- <file>`: copies the SQLite store that STORE_URL names (read from .env and the environment,
 * as the bot reads them) to `<file>`, while the bot runs. PostgreSQL has its own tool for this, pg_dump
 * (docs/operations.md, "Backups").
 */
import { parseArgs } from 'node:util';

import { loadConfigFieldsOrExit } from '../src/base/config.js';
import { backupSqliteFile } from './backup-store/backup-sqlite.js';

const USAGE = 'usage: npm run backup -- <file>   (e.g. npm run backup -- backups/bot-$(date +%F).sqlite)';

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const [destination] = positionals;
if (destination === undefined || positionals.length > 1) {
  process.stderr.write(`backup: name one file to write the backup to\n${USAGE}\n`);
  process.exit(2);
}

const { STORE_URL } = loadConfigFieldsOrExit(['STORE_URL']);
// The URL itself is never printed: a postgres:// one holds the database's password.
if (/^postgres(ql)?:/.test(STORE_URL)) {
  fail('STORE_URL names PostgreSQL: back it up with pg_dump (docs/operations.md, "Backing up PostgreSQL")');
}
if (!STORE_URL.startsWith('sqlite://')) fail('STORE_URL is memory://: nothing is kept, so there is nothing to back up');

try {
  const started = Date.now();
  const backup = await backupSqliteFile(STORE_URL.slice('sqlite://'.length), destination);
  const size = (backup.bytes / 1024 / 1024).toFixed(1);
  process.stdout.write(`backup: wrote ${backup.file} (${size} MB, checked) in ${Date.now() - started} ms\n`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

function fail(message: string): never {
  process.stderr.write(`backup: ${message}\n`);
  process.exit(1);
}
