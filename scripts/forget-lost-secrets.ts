/**
 * `npm run forget-lost-secrets [-- --yes]`: for a SECRET_KEY lost for good. Lists the stored secrets the
 * SECRET_KEY set now cannot open (webhook secrets, server keys, developer keys; by id, never a value); with
 * `--yes`, forgets them so the bot starts again, and says what admins then set again. Reads STORE_URL and
 * SECRET_KEY from .env and the environment, as the bot does. On SQLite, stop the bot first (the store file admits
 * one process).
 */
import { parseArgs } from 'node:util';

import { loadConfigFieldsOrExit } from '../src/base/config.js';
import { STORE_MODULES } from '../src/features/index.js';
import { appDocumentsOn } from '../src/features/releases/app-documents-on.js';
import { findLostSecrets, forgetLostSecrets, type LostSecrets } from '../src/forget-lost-secrets.js';
import { openStore } from '../src/store/open-store.js';
import { createSecretBox } from '../src/store/secret-box.js';

const { values } = parseArgs({ options: { yes: { type: 'boolean', default: false } } });
const { STORE_URL, SECRET_KEY } = loadConfigFieldsOrExit(['STORE_URL', 'SECRET_KEY']);

let store;
try {
  store = await openStore(STORE_URL, STORE_MODULES);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
try {
  const stores = {
    hooks: store.hooks,
    guilds: store.guilds,
    apps: appDocumentsOn(store.documents),
    secrets: createSecretBox(SECRET_KEY),
  };
  const lost = await findLostSecrets(stores);
  const count = lost.webhooks.length + lost.serverKeys.length + lost.developerKeys.length;
  if (count === 0) {
    say('every stored secret opens with this SECRET_KEY: nothing to forget');
  } else if (values.yes) {
    await forgetLostSecrets(stores, lost);
    say(`forgot ${count} secret(s) this SECRET_KEY cannot open; the bot starts again. Then:`);
    describe(lost, 'set again');
  } else {
    say(`${count} stored secret(s) cannot be opened with this SECRET_KEY:`);
    describe(lost, 'would be forgotten');
    say('nothing changed. If the key they were sealed with is lost for good, run again with --yes');
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await store.close();
}

/** One line per server and kind: ids only. */
function describe(lost: LostSecrets, then: 'set again' | 'would be forgotten'): void {
  const again = then === 'set again';
  for (const { guildId, webhookId } of lost.webhooks) {
    say(
      `  server ${guildId}: webhook ${webhookId ?? '(not registered)'}${again ? ' removed: run /webhook register there' : ''}`,
    );
  }
  for (const guildId of lost.serverKeys) say(`  server ${guildId}: server key${again ? ': run /setup there' : ''}`);
  for (const guildId of lost.developerKeys) {
    say(`  server ${guildId}: developer key${again ? ': run /app key there' : ''}`);
  }
}

function say(line: string): void {
  process.stdout.write(`forget-lost-secrets: ${line}\n`);
}

function fail(message: string): never {
  process.stderr.write(`forget-lost-secrets: ${message}\n`);
  process.exit(1);
}
