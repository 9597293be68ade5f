import { describe, expect, it } from 'vitest';

import { postgresDialect, sqliteDialect } from '../../../src/store/sql-dialect.js';

describe('the statements both engines share', () => {
  const text = `UPDATE delivery SET claim_nonce = ? WHERE channel_id = ? AND ${postgresDialect.inList('seq')}`;

  it('number their placeholders for PostgreSQL, in the order they are bound', () => {
    expect(postgresDialect.sql(text).text).toBe(
      'UPDATE delivery SET claim_nonce = $1 WHERE channel_id = $2 AND seq = ANY($3::bigint[])',
    );
  });

  it('keep SQLite’s placeholders as written, and bind what SQLite has no type for as it can take it', () => {
    expect(sqliteDialect.sql('SELECT ? AS a, ? AS b').text).toBe('SELECT ? AS a, ? AS b');
    expect(sqliteDialect.inList('seq')).toBe('seq IN (SELECT value FROM json_each(?))');
    expect(sqliteDialect.list([3, 1])).toBe('[3,1]');
    expect(sqliteDialect.bool(true)).toBe(1);
    expect(postgresDialect.bool(true)).toBe(true);
  });
});
