import { afterEach, describe, expect, it } from 'vitest';

import { toLoggableError } from '../../src/discord/log-error.js';
import { recordModule } from '../../src/features/record/store/record-module.js';
import { reasonOf } from '../../src/store/set-aside.js';
import type { Store } from '../../src/store/store.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { STORE_ENGINES, type EngineDatabase } from '../helpers/store-engines.js';

const GUILD = '222222222222222222';
/** A caller's name the database is made to refuse: it must reach no log line, no error kept, no set-aside reason. */
const NAME = 'Secret_Caller_42';

/**
 * A store error is logged as it comes (`{ err }`), and PostgreSQL's quote the row they refused ("Key (caller_name)=
 * (…) already exists", "Failing row contains (…)"): the logger, the errors the dispatcher logs and the reasons kept
 * of items set aside carry none of a row's values, on either engine.
 */
describe.each(STORE_ENGINES)('a store error of $name in the logs', ({ available, create }) => {
  let database: EngineDatabase | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    await database?.dispose();
    store = undefined;
    database = undefined;
  });

  it.skipIf(!available)("carries none of the refused row's values", async () => {
    database = await create();
    store = await database.open();
    // A constraint the second call breaks, as a real one would: the database quotes the key it refused.
    await database.exec('CREATE UNIQUE INDEX test_one_call_a_name ON record_modcall (caller_name)');
    const record = store.of(recordModule);
    const call = (at: number) => [{ callerId: `${at}`, at, callerName: NAME }];
    await record.noteModcallHandled(GUILD, 'server', call(1_000), {});
    const error = await record.noteModcallHandled(GUILD, 'server', call(2_000), {}).then(
      () => undefined,
      (refused: unknown) => refused,
    );
    expect(error).toBeInstanceOf(Error);
    // What the engine said, whole, names the row: the test's constraint is real.
    if (database.url.startsWith('postgres')) expect(JSON.stringify({ ...(error as object) })).toContain(NAME);

    const logs = captureLogs('debug');
    logs.logger.error({ err: error }, 'a write failed');
    logs.logger.error({ err: new AggregateError([error], 'several writes failed') }, 'a sweep failed');
    expect(logs.lines).toHaveLength(2);
    expect(logs.text()).toMatch(/duplicate key value violates unique constraint|UNIQUE constraint failed/);
    expect(logs.text()).not.toContain(NAME);
    expect(JSON.stringify(toLoggableError(error))).not.toContain(NAME);
    expect(reasonOf(error)).not.toContain(NAME);
  });

  it.skipIf(!available)('carries no value the database quotes in its message', async () => {
    database = await create();
    const error = await database.query(`SELECT CAST('${NAME}' AS INTEGER) + 1 AS n`).then(
      () => undefined,
      (refused: unknown) => refused,
    );
    // SQLite casts what it cannot read to 0: only PostgreSQL refuses it, quoting the value.
    if (!database.url.startsWith('postgres')) return expect(error).toBeUndefined();
    expect((error as Error).message).toContain(NAME);
    const logs = captureLogs('debug');
    logs.logger.warn({ err: error }, 'a read failed');
    expect(logs.text()).toContain('invalid input syntax for type integer: [value]');
    expect(logs.text()).not.toContain(NAME);
    expect(JSON.stringify(toLoggableError(error))).not.toContain(NAME);
    expect(reasonOf(error)).toBe('invalid input syntax for type integer: [value]');
  });
});
