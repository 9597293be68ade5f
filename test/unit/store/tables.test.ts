import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';

import { describeTables, renderTableTypes, TABLES_FILE } from '../../../scripts/table-types.js';
import { postgresDialect, sqliteDialect } from '../../../src/store/sql-dialect.js';
import { columns, type RowOf } from '../../../src/store/table-columns.js';

describe('the tables’ row types', () => {
  it('are what npm run generate:tables writes from the latest schema', async () => {
    const generated = await renderTableTypes(describeTables());
    expect(readFileSync(TABLES_FILE, 'utf8'), 'src/store/tables.ts is out of date: run npm run generate:tables').toBe(
      generated,
    );
  });

  it('list the tables by name and their columns in the schema’s order, leaving SQLite’s own out', () => {
    const tables = describeTables();
    expect(tables.map((table) => table.name)).toEqual([...tables.map((table) => table.name)].sort());
    expect(tables.map((table) => table.name)).not.toContain('sqlite_sequence');
    const delivery = tables.find((table) => table.name === 'delivery');
    expect(delivery?.columns[0]).toEqual({ name: 'seq', kind: 'integer', nullable: false });
    expect(delivery?.columns.find((column) => column.name === 'park_kind')).toEqual({
      name: 'park_kind',
      kind: 'text',
      nullable: true,
      values: ['unrouted', 'broken', 'refused'],
    });
    expect(delivery?.columns.find((column) => column.name === 'muted')?.kind).toBe('boolean');
  });
});

describe('a statement’s columns', () => {
  const QUEUED = columns('delivery', 'seq', 'channel_id', 'muted');

  it('are selected as written, in each engine’s placeholders', () => {
    expect(sqliteDialect.select(QUEUED).from('delivery WHERE seq > ?').text).toBe(
      'SELECT seq, channel_id, muted FROM delivery WHERE seq > ?',
    );
    expect(postgresDialect.select(QUEUED).from('delivery WHERE seq > ?').text).toBe(
      'SELECT seq, channel_id, muted FROM delivery WHERE seq > $1',
    );
  });

  it('give the row type: those columns only, as the engine that reads them returns them', () => {
    expectTypeOf<RowOf<typeof QUEUED>>().toEqualTypeOf<{
      seq: number;
      channel_id: string | null;
      muted: boolean | 0 | 1;
    }>();
    expectTypeOf<RowOf<typeof QUEUED, 'sqlite'>['muted']>().toEqualTypeOf<0 | 1>();
    expectTypeOf<RowOf<typeof QUEUED, 'postgres'>['muted']>().toEqualTypeOf<boolean>();
    // @ts-expect-error a column the table does not have
    columns('delivery', 'seq', 'no_such_column');
  });
});
