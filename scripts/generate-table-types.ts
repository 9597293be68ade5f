// Writes src/store/tables.ts, one row type per table of the latest schema: `npm run generate:tables` after a
// migration changes a table. A unit test fails while the committed file differs from what this writes.
import { writeFileSync } from 'node:fs';

import { describeTables, renderTableTypes, TABLES_FILE } from './table-types.js';

writeFileSync(TABLES_FILE, await renderTableTypes(describeTables()));
console.log(`wrote ${TABLES_FILE}`);
