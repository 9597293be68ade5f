import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { memberMonthStatements } from '../../../../src/features/record/store/member-month-statements.js';
import { postgresDialect } from '../../../../src/store/sql-dialect.js';
import { createMigratedDatabase, POSTGRES_URL } from '../../../helpers/postgres-database.js';

/*
 * /staff history's cases by month on PostgreSQL (memberMonths): a moderator's standing cases are read from an index
 * in the order of their days and counted day after day as they come, never hashed one by one, nor read from the
 * table. A guild of three years of cases by 30 moderators (about 2,700 each, 3 % voided), vacuumed and analyzed as
 * autovacuum would leave it.
 */

const GUILD = '100000000000000045';
const MODERATORS = 30;
const CASES = 80_000;
const START = Date.UTC(2023, 0, 1);
const SPAN_MS = 3 * 365 * 24 * 60 * 60 * 1000;

describe.skipIf(!POSTGRES_URL)("the plan of a member's cases by month on PostgreSQL", () => {
  let client: pg.Client;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createMigratedDatabase();
    drop = () => database.drop();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // Cases in time order, each by one of the moderators in turn, every 33rd voided.
    await client.query(
      `INSERT INTO record_case (guild_id, server, number, at, type, moderator_id, created_at, voided_at)
       SELECT $1, 's1', n, $2::bigint + n * ($3::bigint / $4), 'warn', '2' || lpad((n % $5)::text, 17, '0'),
              $2::bigint + n * ($3::bigint / $4),
              CASE WHEN n % 33 = 0 THEN $2::bigint + n * ($3::bigint / $4) + 60000 END
       FROM generate_series(0, $4 - 1) AS n`,
      [GUILD, START, SPAN_MS, CASES, MODERATORS],
    );
    await client.query('VACUUM ANALYZE record_case');
  }, 60_000);

  afterAll(async () => {
    await client.end();
    await drop();
  });

  it('reads the standing cases from their index by day, and counts the days in its order', async () => {
    const { caseMonths } = memberMonthStatements(postgresDialect);
    const params = [GUILD, `2${'1'.padStart(17, '0')}`, 0, Number.MAX_SAFE_INTEGER];
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${caseMonths.text}`, params);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('Index Only Scan using record_case_standing_by_day on record_case');
    // The days straight from the index's order: no hash of each case by its day, no sort.
    expect(plan).toMatch(/GroupAggregate[\s\S]*Group Key: \(\(record_case\.at \/ 86400000\)\)/);
    expect(plan).not.toContain('Sort');
    const months = await client.query<{ count: string }>(caseMonths.text, params);
    expect(months.rows).toHaveLength(36);
  });
});
