import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { auditModule } from '../../src/features/audit/store/audit-module.js';
import { digestModule } from '../../src/features/digest/store/digest-module.js';
import { dutyModule } from '../../src/features/duty/store/duty-module.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { recordModule } from '../../src/features/record/store/record-module.js';
import { openStore } from '../../src/store/open-store.js';
import { migrate as migratePostgres } from '../../src/store/postgres/migrate.js';
import { migrate as migrateSqlite } from '../../src/store/sqlite/migrate.js';
import type { Store } from '../../src/store/store.js';
import {
  CHANNEL,
  GUILD,
  HOOK,
  LEGACY_POSTGRES_COLUMNS,
  LEGACY_POSTGRES_ROWS,
  LEGACY_ROWS,
  type LegacyValue,
} from '../fixtures/legacy-store/legacy-rows.js';
import { LEGACY_POSTGRES_STEPS, migrateLegacyPostgres } from '../fixtures/legacy-store/postgres-legacy-migrations.js';
import { LEGACY_SQLITE_STEPS, migrateLegacySqlite } from '../fixtures/legacy-store/sqlite-legacy-migrations.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A table's rows, every column, in a stable order. */
type Rows = Record<string, unknown[]>;

/**
 * The rows of the tables `before` has, after an upgrade: each of those is compared whole, and every table the upgrade
 * made (a feature's since) must be empty; a column a later step added to a kept table must be NULL in every kept row
 * (then left out of the comparison: the row is otherwise whole).
 */
function keptRows(after: Rows, before: Rows): Rows {
  for (const [table, rows] of Object.entries(after)) {
    if (!(table in before)) expect(rows, `${table}, made by the upgrade`).toEqual([]);
  }
  return Object.fromEntries(
    Object.keys(before).map((table) => {
      const columns = Object.keys(before[table]?.[0] ?? {});
      return [table, (after[table] ?? []).map((row) => withoutAdded(table, columns, row))];
    }),
  );
}

/** Columns a named step added to a table of that schema since, and the value every upgraded row has in them. */
const ADDED_COLUMNS: Record<string, Record<string, unknown>> = { audit: { kind: 'action', subject: null } };

/**
 * An upgraded row without the columns added since (not among `columns`, the legacy row's), once they hold what an
 * upgraded row must: the value ADDED_COLUMNS names, else nothing (null).
 */
function withoutAdded(table: string, columns: readonly string[], row: unknown): unknown {
  const rest = { ...(row as Record<string, unknown>) };
  for (const column of Object.keys(rest).filter((name) => !columns.includes(name))) {
    const value = ADDED_COLUMNS[table]?.[column] ?? null;
    expect(rest[column], `${table}.${column} of an upgraded row`).toEqual(value);
    delete rest[column];
  }
  return rest;
}

/** SQL as two stores compare it: without comments, its whitespace one space. */
const normalized = (sql: string | null) =>
  (sql ?? '')
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')
    .trim();

// --- SQLite -----------------------------------------------------------------------------------------------------

function sqliteTables(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
    .all()
    .map((row) => row.name);
}

/** Every row of every table but the migration runner's. */
function sqliteRows(db: Database.Database): Rows {
  const rows: Rows = {};
  for (const table of sqliteTables(db).filter((name) => !name.startsWith('bridge_'))) {
    const width = db.prepare(`SELECT * FROM ${table} LIMIT 0`).columns().length;
    const order = Array.from({ length: width }, (_, i) => i + 1).join(', ');
    rows[table] = db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all();
  }
  return rows;
}

/** The schema: each table's and index's definition, by name. */
function sqliteSchema(db: Database.Database): Record<string, string> {
  const entries = db
    .prepare<[], { type: string; name: string; sql: string | null }>('SELECT type, name, sql FROM sqlite_master')
    .all();
  return Object.fromEntries(entries.map(({ type, name, sql }) => [`${type} ${name}`, normalized(sql)]));
}

function sqliteValue(value: LegacyValue): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object') return JSON.stringify(value.json);
  return value;
}

function insertSqliteRows(db: Database.Database, tables: typeof LEGACY_ROWS): void {
  for (const [table, rows] of Object.entries(tables)) {
    for (const row of rows) {
      const names = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(
        ...Object.values(row).map(sqliteValue),
      );
    }
  }
}

/** The schema a store made by this version alone has. */
function freshSqliteSchema(): Record<string, string> {
  const db = new Database(':memory:');
  try {
    migrateSqlite(db, STORE_MODULES);
    return sqliteSchema(db);
  } finally {
    db.close();
  }
}

/** A store file as the last version with numbered migrations left it, with rows in every table. */
function legacySqliteFile(): string {
  const dir = makeTempDir();
  cleanups.push(() => dir.remove());
  const file = `${dir.path}/bot.sqlite`;
  const db = new Database(file);
  try {
    migrateLegacySqlite(db);
    insertSqliteRows(db, LEGACY_ROWS);
  } finally {
    db.close();
  }
  return file;
}

function onSqliteFile<T>(file: string, read: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

// --- PostgreSQL -------------------------------------------------------------------------------------------------

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

/** Every row of every table but the migration runner's, and where each sequence stands. */
async function postgresRows(client: pg.Client): Promise<Rows> {
  const rows: Rows = {};
  const { rows: tables } = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'bridge\\_%'
     ORDER BY table_name`,
  );
  for (const { table_name: table } of tables) {
    const { fields } = await client.query(`SELECT * FROM ${table} LIMIT 0`);
    const order = fields.map((_, i) => i + 1).join(', ');
    rows[table] = (await client.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
  }
  const { rows: sequences } = await client.query<{ sequence_name: string }>(
    `SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = current_schema() ORDER BY 1`,
  );
  for (const { sequence_name: sequence } of sequences) {
    rows[`sequence ${sequence}`] = (await client.query(`SELECT last_value, is_called FROM ${sequence}`)).rows;
  }
  return rows;
}

/** The schema: columns, indexes, constraints, sequences and functions (each function's whole definition). */
async function postgresSchema(client: pg.Client): Promise<Record<string, unknown>> {
  const query = async (sql: string) => (await client.query<Record<string, unknown>>(sql)).rows;
  return {
    columns: await query(
      `SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default, is_identity
       FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    ),
    indexes: await query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname`,
    ),
    constraints: await query(
      `SELECT conrelid::regclass::text AS on_table, conname, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2`,
    ),
    sequences: await query(
      `SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = current_schema() ORDER BY 1`,
    ),
    functions: await query(
      `SELECT proname, pg_get_function_identity_arguments(oid) AS arguments, pg_get_functiondef(oid) AS definition
       FROM pg_proc WHERE pronamespace = current_schema()::regnamespace ORDER BY 1, 2`,
    ),
  };
}

/** The accept functions the database has, by name and arguments. */
async function acceptFunctions(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ fn: string }>(
    `SELECT proname || '(' || pg_get_function_identity_arguments(oid) || ')' AS fn FROM pg_proc
     WHERE pronamespace = current_schema()::regnamespace AND proname LIKE 'bridge\\_accept%' ORDER BY 1`,
  );
  return rows.map((row) => row.fn);
}

function postgresValue(value: LegacyValue): unknown {
  if (value !== null && typeof value === 'object') return JSON.stringify(value.json);
  return value;
}

async function insertPostgresRows(client: pg.Client, tables: typeof LEGACY_ROWS): Promise<void> {
  for (const [table, rows] of Object.entries(tables)) {
    for (const common of rows) {
      const row = { ...common, ...LEGACY_POSTGRES_COLUMNS[table] };
      const names = Object.keys(row);
      // The audit's id is an identity column: the rows keep the ids they had, as a real store's would.
      const overriding = table === 'audit' ? 'OVERRIDING SYSTEM VALUE' : '';
      await client.query(
        `INSERT INTO ${table} (${names.join(', ')}) ${overriding} VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(row).map(postgresValue),
      );
    }
  }
  // Where the sequences stood in that store: past the rows it had.
  await client.query(`SELECT setval('delivery_seq', 3), setval(pg_get_serial_sequence('audit', 'id'), 2)`);
}

async function freshPostgresSchema(): Promise<Record<string, unknown>> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const client = await connect(database.url);
  await migratePostgres(client, STORE_MODULES);
  return postgresSchema(client);
}

/** A database as the last version with numbered migrations left it (up to step `upTo`), with its rows if all. */
async function legacyDatabase(upTo = LEGACY_POSTGRES_STEPS): Promise<{ url: string; client: pg.Client }> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const client = await connect(database.url);
  await migrateLegacyPostgres(client, upTo);
  if (upTo === LEGACY_POSTGRES_STEPS) await insertPostgresRows(client, { ...LEGACY_ROWS, ...LEGACY_POSTGRES_ROWS });
  return { url: database.url, client };
}

// --- What the upgraded store answers ------------------------------------------------------------------------------

async function openUpgraded(url: string): Promise<Store> {
  const store = await openStore(url, STORE_MODULES, () => Date.UTC(2026, 10, 21));
  cleanups.push(() => store.close());
  return store;
}

/** What the bot reads of the fixture's guild after the upgrade: the rows as the features see them, all there. */
async function expectEverythingKept(store: Store): Promise<void> {
  expect(await store.hooks.get(HOOK)).toMatchObject({ guildId: GUILD, secret: 'sealed:v1:secret' });
  expect(await store.guilds.get(GUILD)).toMatchObject({ serverKey: 'sealed:v1:key', defaultChannelId: CHANNEL });
  const waiting = await store.deliveries.nextFor(CHANNEL, 10);
  expect(waiting.map((entry) => [entry.deliveryId, entry.writtenNonce])).toEqual([['d-waiting', 'nonce-1']]);
  expect(await store.deliveries.writtenMessage(CHANNEL, 'nonce-1')).toBe('{"content":"written"}');
  expect(await store.documents.get('alert_settings', GUILD)).toEqual({ guildId: GUILD, channelId: CHANNEL });
  expect((await store.setAside.list(10)).map((item) => item.label)).toEqual(['case.created d-case-3']);
  const record = store.of(recordModule);
  expect((await record.casesOf(GUILD, '9001', { limit: 10, offset: 0 })).map((found) => found.number)).toEqual([1]);
  expect(await record.settingsOf(GUILD)).toEqual({ retentionDays: 90, staffRoleId: '600000000000000002' });
  expect((await record.openShifts(GUILD)).map((shift) => shift.memberId)).toEqual(['400000000000000001']);
  expect((await record.runningSessions(GUILD)).map((session) => session.sessionId)).toEqual([11]);
  expect(await store.of(dutyModule).coverageOf(GUILD)).toEqual({
    guildId: GUILD,
    minimum: { staff: 2, afterMinutes: 15 },
    uncoveredSince: Date.UTC(2026, 10, 20, 12) - 60_000,
  });
  expect(await store.of(dutyModule).roleHoldersOf(GUILD)).toHaveLength(1);
  expect(await store.of(digestModule).scheduleOf(GUILD)).toMatchObject({ timeZone: 'Europe/Berlin', failures: 1 });
  expect(await store.of(digestModule).quotasOf(GUILD)).toEqual([
    { roleId: '600000000000000003', hours: 10, per: 'week' },
  ]);
  expect((await store.of(auditModule).latest(GUILD, 10)).map((entry) => entry.action)).toEqual(['/feed off', '/setup']);
  // And it goes on: a new delivery and a new audit line come after the old ones.
  const next = { hookId: HOOK, guildId: GUILD, deliveryId: 'd-new', event: 'modcall', receivedAt: 9, rawBody: '{}' };
  expect(await store.deliveries.accept(next, { requireHook: true })).toBe('accepted');
  expect((await store.deliveries.listOpen()).map((entry) => [entry.deliveryId, entry.seq])).toEqual([
    ['d-waiting', 1],
    ['d-held', 2],
    ['d-new', 4],
  ]);
  await store
    .of(auditModule)
    .append({ guildId: GUILD, userId: 'u', action: '/status', result: 'done', detail: null, at: 9 });
  expect((await store.of(auditModule).latest(GUILD, 1)).map((entry) => entry.action)).toEqual(['/status']);
}

describe('a SQLite store written by the last version with numbered migrations', () => {
  it('upgrades with every row of every table kept, to the schema a new store has', async () => {
    const file = legacySqliteFile();
    const tables = onSqliteFile(file, sqliteTables).filter((name) => name !== 'sqlite_sequence');
    expect(Object.keys(LEGACY_ROWS).sort(), 'the fixture has rows in every table of that schema').toEqual(tables);
    const before = onSqliteFile(file, sqliteRows);

    await (await openStore(`sqlite://${file}`, STORE_MODULES)).close();

    expect(keptRows(onSqliteFile(file, sqliteRows), before)).toEqual(before);
    expect(onSqliteFile(file, sqliteSchema)).toEqual(freshSqliteSchema());
    await expectEverythingKept(await openUpgraded(`sqlite://${file}`));
  });

  it('upgrades from each of its numbered steps to the schema a new store has', () => {
    const fresh = freshSqliteSchema();
    for (let step = 0; step <= LEGACY_SQLITE_STEPS; step += 1) {
      const db = new Database(':memory:');
      try {
        migrateLegacySqlite(db, step);
        migrateSqlite(db, STORE_MODULES);
        expect(sqliteSchema(db), `from numbered step ${step}`).toEqual(fresh);
      } finally {
        db.close();
      }
    }
  });

  it('is refused by that version once upgraded, and refuses a step of a module it does not know', async () => {
    const file = legacySqliteFile();
    await (await openStore(`sqlite://${file}`, STORE_MODULES)).close();
    expect(() => onSqliteFile(file, (db) => migrateLegacySqlite(db))).toThrow(/written by a newer version/);

    onSqliteFile(file, (db) =>
      db.prepare(`INSERT INTO bridge_migration_step VALUES ('record', 'from-a-newer-version', 0)`).run(),
    );
    await expect(openStore(`sqlite://${file}`, STORE_MODULES)).rejects.toThrow(
      'the store was migrated by a newer version of the bot (step from-a-newer-version of record',
    );
  });

  it('is not upgraded without every feature’s store module, whose tables are there', async () => {
    const file = legacySqliteFile();
    await expect(openStore(`sqlite://${file}`, [])).rejects.toThrow(/open it with every feature's store module/);
    // Nothing was recorded: with the modules, it upgrades as any other.
    await expectEverythingKept(await openUpgraded(`sqlite://${file}`));
  });
});

describe.skipIf(!POSTGRES_URL)('a PostgreSQL store written by the last version with numbered migrations', () => {
  it('upgrades with every row of every table kept, to the schema a new store has, one accept function left', async () => {
    const { url, client } = await legacyDatabase();
    const before = await postgresRows(client);
    const tables = Object.keys(before).filter((name) => !name.startsWith('sequence '));
    expect(Object.keys({ ...LEGACY_ROWS, ...LEGACY_POSTGRES_ROWS }).sort(), 'rows in every table').toEqual(tables);
    // Four generations of the intake's accept, of which only the last is called.
    expect(await acceptFunctions(client)).toEqual([
      'bridge_accept(p_hook text, p_delivery text, p_guild text, p_event text, p_body text, p_received bigint, p_channel text, p_version bigint, p_server text, p_case_type text, p_muted boolean)',
      'bridge_accept_batch(p_items jsonb)',
      'bridge_accept_many(p_items jsonb)',
      'bridge_accept_placed(p_items jsonb)',
    ]);

    await (await openStore(url, STORE_MODULES)).close();

    expect(keptRows(await postgresRows(client), before)).toEqual(before);
    expect(await postgresSchema(client)).toEqual(await freshPostgresSchema());
    expect(await acceptFunctions(client)).toEqual(['bridge_accept_placed(p_items jsonb)']);
    await expectEverythingKept(await openUpgraded(url));
  });

  it('upgrades from each of its numbered steps to the schema a new store has', async () => {
    const fresh = await freshPostgresSchema();
    for (let step = 0; step <= LEGACY_POSTGRES_STEPS; step += 1) {
      const { client } = await legacyDatabase(step);
      await migratePostgres(client, STORE_MODULES);
      expect(await postgresSchema(client), `from numbered step ${step}`).toEqual(fresh);
    }
  }, 120_000);

  it('applies the accept function again when its definition changed, or it is gone', async () => {
    const { url, client } = await legacyDatabase();
    await (await openStore(url, STORE_MODULES)).close();
    const applied = await postgresSchema(client);
    // An older definition, recorded under another hash: as a version with another body of it left it.
    await client.query(`CREATE OR REPLACE FUNCTION bridge_accept_placed(p_items JSONB) RETURNS TEXT[]
                        LANGUAGE sql AS $$ SELECT ARRAY[]::TEXT[] $$`);
    await client.query(`UPDATE bridge_function SET hash = 'an older body' WHERE name = 'bridge_accept_placed'`);
    await (await openStore(url, STORE_MODULES)).close();
    expect(await postgresSchema(client)).toEqual(applied);

    await client.query('DROP FUNCTION bridge_accept_placed(JSONB)');
    await expectEverythingKept(await openUpgraded(url));
  });

  it('is refused by that version once upgraded, and refuses a step of a module it does not know', async () => {
    const { url, client } = await legacyDatabase();
    await (await openStore(url, STORE_MODULES)).close();
    await expect(migrateLegacyPostgres(client)).rejects.toThrow(/migrated by a newer version/);

    await client.query(`INSERT INTO bridge_migration_step (module, name) VALUES ('duty', 'from-a-newer-version')`);
    await expect(openStore(url, STORE_MODULES)).rejects.toThrow(
      'the store was migrated by a newer version of the bot (step from-a-newer-version of duty',
    );
  });

  it('is not upgraded without every feature’s store module, whose tables are there', async () => {
    const { url } = await legacyDatabase();
    await expect(openStore(url, [])).rejects.toThrow(/open it with every feature's store module/);
    await expectEverythingKept(await openUpgraded(url));
  });
});
