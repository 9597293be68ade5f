import Database from 'better-sqlite3';

import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { describeDigestsContract } from '../features/digest/digests-contract.js';
import { describeDutyRoleHoldersContract } from '../features/duty/duty-role-holders-contract.js';
import { describeCommunityRecordContract } from '../features/record/community-record-contract.js';
import { describeRecordFiguresContract } from '../features/record/record-figures-contract.js';
import { describeSessionFactsContract } from '../features/record/session-facts-contract.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { describeDocumentsContract } from './documents-contract.js';
import { describeGuildStoreContract } from './guild-store-contract.js';
import { describeHeldEntriesContract } from './held-entries-contract.js';
import { describeRoutingContract } from './routing-contract.js';
import { describeSetAsideContract } from './set-aside-contract.js';
import { describeStoreContract } from './store-contract.js';
import { describeStoreModulesContract } from './store-modules-contract.js';
import type { StoreUnderTest } from './store-under-test.js';

function sqliteUnderTest(): Promise<StoreUnderTest> {
  const dir = makeTempDir();
  const file = `${dir.path}/store.sqlite`;
  /** Another connection to the file, as an operator's tool would be: it changes the schema under the bot. */
  const onFile = (sql: string) => {
    const db = new Database(file);
    db.exec(sql);
    db.close();
  };
  return Promise.resolve({
    open: (clock) => openStore(`sqlite://${file}`, STORE_MODULES, clock),
    openWith: (modules, clock) => openStore(`sqlite://${file}`, modules, clock),
    breakDeliveryWrites: () =>
      Promise.resolve(
        onFile(`CREATE TRIGGER refuse BEFORE INSERT ON delivery BEGIN SELECT RAISE(ABORT, 'disk full'); END`),
      ),
    healDeliveryWrites: () => Promise.resolve(onFile('DROP TRIGGER refuse')),
    exec: (sql) => Promise.resolve(onFile(sql)),
    refuseRows: (table, change, column, value) =>
      Promise.resolve(
        onFile(`CREATE TRIGGER refuse_${table}_${change} BEFORE ${change} ON ${table}
                WHEN ${change === 'INSERT' ? 'NEW' : 'OLD'}.${column} = '${value.replaceAll("'", "''")}'
                BEGIN SELECT RAISE(ABORT, 'the test refuses this ${table} row'); END`),
      ),
    allowRows: (table, change) => Promise.resolve(onFile(`DROP TRIGGER refuse_${table}_${change}`)),
    dispose: () => Promise.resolve(dir.remove()),
  });
}

describeStoreContract('SQLite', sqliteUnderTest);
describeRoutingContract('SQLite', sqliteUnderTest);
describeHeldEntriesContract('SQLite', sqliteUnderTest);
describeGuildStoreContract('SQLite', sqliteUnderTest);
describeDocumentsContract('SQLite', sqliteUnderTest);
describeCommunityRecordContract('SQLite', sqliteUnderTest);
describeDigestsContract('SQLite', sqliteUnderTest);
describeSessionFactsContract('SQLite', sqliteUnderTest);
describeDutyRoleHoldersContract('SQLite', sqliteUnderTest);
describeRecordFiguresContract('SQLite', sqliteUnderTest);
describeSetAsideContract('SQLite', sqliteUnderTest);
describeStoreModulesContract('SQLite', sqliteUnderTest);
