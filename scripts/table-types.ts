import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import * as prettier from 'prettier';

import { STORE_MODULES } from '../src/features/index.js';
import { migrate } from '../src/store/sqlite/migrate.js';

/** Where `npm run generate:tables` writes the tables' row types. */
export const TABLES_FILE = fileURLToPath(new URL('../src/store/tables.ts', import.meta.url));

/** What a column holds, as the generated type says it. */
export type ColumnKind = 'integer' | 'text' | 'boolean' | 'json';

export interface ColumnModel {
  name: string;
  kind: ColumnKind;
  /** False for NOT NULL and primary key columns. */
  nullable: boolean;
  /** The only values a CHECK (column IN (…)) allows, when the schema names them. */
  values?: string[];
}

export interface TableModel {
  name: string;
  columns: ColumnModel[];
}

/**
 * Columns the engines return differently, which SQLite's declared type cannot tell: a boolean is an INTEGER (0
 * or 1) in SQLite and a BOOLEAN in PostgreSQL; a JSON document is TEXT in SQLite and JSONB in PostgreSQL, which
 * pg parses. A column added as either needs its line here; the PostgreSQL contract test fails until it has one.
 */
const ENGINE_TYPED: Readonly<Record<string, 'boolean' | 'json'>> = {
  'delivery.muted': 'boolean',
  'guild_settings.settings': 'json',
  'hook.events': 'json',
  'hook_activity.enabled': 'boolean',
  'record.value': 'json',
};

/** SQLite's declared types, as the bridge's schema uses them (the community record's, written for both engines, say BIGINT). */
const DECLARED: Readonly<Record<string, ColumnKind>> = { INTEGER: 'integer', BIGINT: 'integer', TEXT: 'text' };

interface PragmaColumn {
  cid: number;
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

/**
 * The tables of the latest schema, made by the store's own migrations in a fresh in-memory database: the kernel's
 * and every feature's store module's (src/features/index.ts).
 */
export function describeTables(): TableModel[] {
  const db = new Database(':memory:');
  try {
    migrate(db, STORE_MODULES);
    return readTables(db);
  } finally {
    db.close();
  }
}

/**
 * The bridge's tables in `db`, by name, each column in the schema's order (both stable, so the output only
 * changes with the schema). SQLite's own tables (sqlite_sequence) are left out, and so are the migration runner's
 * (`bridge_migration_step`: no statement reads it but the runner's own).
 */
export function readTables(db: Database.Database): TableModel[] {
  const tables = db
    .prepare<[], { name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
         AND name NOT LIKE 'bridge\\_%' ESCAPE '\\' ORDER BY name`,
    )
    .all();
  return tables.map(({ name, sql }) => {
    const checks = checkedValues(sql);
    const columns = db
      .prepare<[], PragmaColumn>(`SELECT * FROM pragma_table_info('${name}') ORDER BY cid`)
      .all()
      .map((column): ColumnModel => {
        const declared = DECLARED[column.type.toUpperCase()];
        if (declared === undefined) {
          throw new Error(`${name}.${column.name}: declared type ${column.type} has no TypeScript type here`);
        }
        const model: ColumnModel = {
          name: column.name,
          kind: ENGINE_TYPED[`${name}.${column.name}`] ?? declared,
          nullable: column.notnull === 0 && column.pk === 0,
        };
        const values = checks.get(column.name);
        if (values !== undefined) model.values = values;
        return model;
      });
    return { name, columns };
  });
}

/** The values each `CHECK (column IN ('a', 'b'))` of a CREATE TABLE allows, by column. */
function checkedValues(createTable: string): Map<string, string[]> {
  const checks = new Map<string, string[]>();
  for (const match of createTable.matchAll(/CHECK\s*\(\s*(\w+)\s+IN\s*\(([^)]*)\)\s*\)/gi)) {
    const [, column, list] = match;
    if (column === undefined || list === undefined) continue;
    checks.set(
      column,
      [...list.matchAll(/'([^']*)'/g)].map(([, value]) => value ?? ''),
    );
  }
  return checks;
}

/** `hook_activity` → `HookActivityTable`. */
export function typeNameOf(table: string): string {
  return `${table.replace(/(^|_)(\w)/g, (_, __: string, letter: string) => letter.toUpperCase())}Table`;
}

function typeOf(column: ColumnModel): string {
  const base =
    column.values !== undefined
      ? column.values.map((value) => `'${value}'`).join(' | ')
      : column.kind === 'integer'
        ? 'number'
        : column.kind === 'text'
          ? 'string'
          : `EngineValues[E]['${column.kind}']`;
  return column.nullable ? `${base} | null` : base;
}

const isEngineTyped = (table: TableModel) =>
  table.columns.some((column) => column.kind === 'boolean' || column.kind === 'json');

/** The source of src/store/tables.ts for `tables`, formatted as the project's prettier configuration says. */
export async function renderTableTypes(tables: readonly TableModel[]): Promise<string> {
  const lines = [
    `// Generated by npm run generate:tables (scripts/generate-table-types.ts) from the SQLite schema; do not edit.`,
    '',
    '/**',
    ' * How each engine returns the values whose column types they do not share: a boolean is 0 or 1 in SQLite and',
    ' * true or false in PostgreSQL; a JSON document is its text in SQLite and the parsed value in PostgreSQL. A',
    ' * table with such a column takes the engine `E` that read the row; left out, the type holds for either.',
    ' */',
    'export interface EngineValues {',
    '  sqlite: { boolean: 0 | 1; json: string };',
    '  postgres: { boolean: boolean; json: unknown };',
    '}',
    '',
    'export type Engine = keyof EngineValues;',
  ];
  for (const table of tables) {
    const generic = isEngineTyped(table) ? '<E extends Engine = Engine>' : '';
    lines.push('', `/** A row of \`${table.name}\`. */`, `export interface ${typeNameOf(table.name)}${generic} {`);
    for (const column of table.columns) lines.push(`  ${column.name}: ${typeOf(column)};`);
    lines.push('}');
  }
  lines.push('', '/** Every table by its name. */', 'export interface Tables<E extends Engine = Engine> {');
  for (const table of tables) {
    lines.push(`  ${table.name}: ${typeNameOf(table.name)}${isEngineTyped(table) ? '<E>' : ''};`);
  }
  lines.push('}', '');
  const options = await prettier.resolveConfig(TABLES_FILE);
  return prettier.format(lines.join('\n'), { ...options, filepath: TABLES_FILE });
}
