import type { Database } from 'better-sqlite3';
import type pg from 'pg';

/**
 * The guild /staff history is measured in (issue 45): five years of a busy community, made row by row from a fixed
 * seed (the same rows on both engines, every run) and written straight into the tables in big transactions:
 *
 * - record_case: 1,000,000 cases over the five years, in time order, 50 moderators (about 20,000 each), 3 % voided.
 * - record_shift: 100,000 shifts over the same years, 100 staff members (about 1,000 each, 20 a month).
 * - record_modcall: 200,000 calls, each a card of its own, 90 % claimed by one of the 100 staff within minutes.
 * - staff_infraction, staff_promotion: for each of the 10 members measured, 40 infractions and 12 promotions.
 */
export const HISTORY_GUILD = '100000000000000045';
export const HISTORY_CASES = 1_000_000;
export const HISTORY_SHIFTS = 100_000;
export const HISTORY_CALLS = 200_000;
const STAFF = 100;
const MODERATORS = 50;
/** The members whose history is read: moderators, so each has cases, shifts and claims in every month. */
export const MEASURED_MEMBERS = 10;
const INFRACTIONS_EACH = 40;
const PROMOTIONS_EACH = 12;

export const HISTORY_START = Date.UTC(2021, 10, 1);
export const HISTORY_YEARS = 5;
const SPAN_MS = HISTORY_YEARS * 365 * 24 * 60 * 60 * 1000;
const CHUNK = 20_000;

/** A small seeded PRNG (mulberry32): the same rows every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The `n`th staff member's Discord id; the first {@link MODERATORS} make the cases. */
export function staffMemberId(n: number): string {
  return `2${String(n).padStart(17, '0')}`;
}

/** A table's rows as both engines' writers take them. */
interface TableRows {
  table: string;
  columns: readonly string[];
  /** PostgreSQL's type of each column, for unnest. */
  types: readonly string[];
  rows: () => Generator<unknown[]>;
}

function* cases(): Generator<unknown[]> {
  const next = random(45_1);
  for (let i = 0; i < HISTORY_CASES; i += 1) {
    const at = HISTORY_START + Math.floor((i * SPAN_MS) / HISTORY_CASES);
    const moderator = staffMemberId(Math.floor(next() * MODERATORS));
    const voided = next() < 0.03;
    const player = String(10_000_000 + Math.floor(next() * 50_000));
    yield [
      HISTORY_GUILD,
      i % 2 === 0 ? 's1' : 's2',
      i,
      at,
      'warn',
      player,
      `Player${player}`,
      moderator,
      'mod',
      'exploiting in the main area',
      at,
      voided ? at + 60_000 : null,
      voided ? moderator : null,
    ];
  }
}

function* shifts(): Generator<unknown[]> {
  const next = random(45_2);
  for (let i = 0; i < HISTORY_SHIFTS; i += 1) {
    const at = HISTORY_START + Math.floor((i * SPAN_MS) / HISTORY_SHIFTS);
    const seconds = 1_800 + Math.floor(next() * 12_600);
    const member = staffMemberId(Math.floor(next() * STAFF));
    yield [HISTORY_GUILD, 's1', i, at, member, 'staff', at, at + seconds * 1000, seconds];
  }
}

function* calls(): Generator<unknown[]> {
  const next = random(45_3);
  for (let i = 0; i < HISTORY_CALLS; i += 1) {
    const at = HISTORY_START + Math.floor((i * SPAN_MS) / HISTORY_CALLS);
    const claimed = next() < 0.9;
    const claimer = staffMemberId(Math.floor(next() * STAFF));
    const wait = 10_000 + Math.floor(next() * 600_000);
    yield [HISTORY_GUILD, 's1', `caller-${i}`, at, claimed ? claimer : null, claimed ? at + wait : null];
  }
}

function* infractions(): Generator<unknown[]> {
  for (let m = 0; m < MEASURED_MEMBERS; m += 1) {
    for (let k = 0; k < INFRACTIONS_EACH; k += 1) {
      const at = HISTORY_START + Math.floor(((k + 0.5) * SPAN_MS) / INFRACTIONS_EACH);
      const number = m * INFRACTIONS_EACH + k + 1;
      const type = ['warning', 'strike', 'suspension', 'warning'][k % 4];
      yield [
        HISTORY_GUILD,
        number,
        `seed-${number}`,
        staffMemberId(m),
        type,
        'late to a session, twice',
        null,
        staffMemberId(99),
        at,
        type === 'strike' ? at + 90 * 86_400_000 : null,
        k % 10 === 0 ? staffMemberId(99) : null,
        k % 10 === 0 ? at + 86_400_000 : null,
        k % 10 === 0 ? 'a duplicate' : null,
      ];
    }
  }
}

function* promotions(): Generator<unknown[]> {
  for (let m = 0; m < MEASURED_MEMBERS; m += 1) {
    for (let k = 0; k < PROMOTIONS_EACH; k += 1) {
      const at = HISTORY_START + Math.floor(((k + 0.25) * SPAN_MS) / PROMOTIONS_EACH);
      yield [
        HISTORY_GUILD,
        `seed-p-${m}-${k}`,
        staffMemberId(m),
        k % 3 === 2 ? 'demote' : 'promote',
        '300000000000000001',
        '300000000000000002',
        'steady shifts',
        staffMemberId(99),
        at,
        at,
      ];
    }
  }
}

/** Every table of the seed, in order. */
export const HISTORY_ROWS: readonly TableRows[] = [
  {
    table: 'record_case',
    columns: [
      'guild_id',
      'server',
      'number',
      'at',
      'type',
      'target_id',
      'target_name',
      'moderator_id',
      'moderator_name',
      'reason',
      'created_at',
      'voided_at',
      'voided_by',
    ],
    types: [
      'text',
      'text',
      'bigint',
      'bigint',
      'text',
      'text',
      'text',
      'text',
      'text',
      'text',
      'bigint',
      'bigint',
      'text',
    ],
    rows: cases,
  },
  {
    table: 'record_shift',
    columns: ['guild_id', 'server', 'shift_id', 'at', 'member_id', 'member_name', 'started_at', 'ended_at', 'seconds'],
    types: ['text', 'text', 'bigint', 'bigint', 'text', 'text', 'bigint', 'bigint', 'bigint'],
    rows: shifts,
  },
  {
    table: 'record_modcall',
    columns: ['guild_id', 'server', 'caller_id', 'at', 'claimed_by', 'claimed_at'],
    types: ['text', 'text', 'text', 'bigint', 'text', 'bigint'],
    rows: calls,
  },
  {
    table: 'staff_infraction',
    columns: [
      'guild_id',
      'number',
      'request_id',
      'member_id',
      'type',
      'reason',
      'evidence',
      'given_by',
      'given_at',
      'expires_at',
      'voided_by',
      'voided_at',
      'void_reason',
    ],
    types: [
      'text',
      'bigint',
      'text',
      'text',
      'text',
      'text',
      'text',
      'text',
      'bigint',
      'bigint',
      'text',
      'bigint',
      'text',
    ],
    rows: infractions,
  },
  {
    table: 'staff_promotion',
    columns: [
      'guild_id',
      'request_id',
      'member_id',
      'direction',
      'from_role_id',
      'to_role_id',
      'reason',
      'given_by',
      'asked_at',
      'done_at',
    ],
    types: ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'bigint', 'bigint'],
    rows: promotions,
  },
];

function* chunksOf(rows: Generator<unknown[]>): Generator<unknown[][]> {
  let chunk: unknown[][] = [];
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length === CHUNK) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** SQLite: one prepared INSERT per table, a transaction per chunk. */
export function seedHistorySqlite(db: Database): void {
  db.prepare('INSERT INTO record_guild (guild_id) VALUES (?)').run(HISTORY_GUILD);
  for (const { table, columns, rows } of HISTORY_ROWS) {
    const insert = db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    const writeChunk = db.transaction((chunk: unknown[][]) => {
      for (const row of chunk) insert.run(...row);
    });
    for (const chunk of chunksOf(rows())) writeChunk(chunk);
  }
}

/**
 * PostgreSQL: one INSERT … SELECT FROM unnest(column arrays) per chunk, each table in one transaction. Each commit
 * waits for its WAL (synchronous_commit on, six commits): VACUUM may mark a row visible to all (its hint bit, then
 * the page in the visibility map) only once the commit of the transaction that wrote it is flushed, and PostgreSQL
 * keeps that per group of 32 transaction ids. With the seed's commits asynchronous, a VACUUM ANALYZE run next on
 * the same connection (its ANALYZE commits asynchronously too, in the same group) left every page of the tables
 * out of the visibility map: the member's cases were then read from the table (a Bitmap Heap Scan), not from their
 * index, about 20,000 pages a history.
 */
export async function seedHistoryPostgres(client: pg.Client): Promise<void> {
  await client.query('INSERT INTO record_guild (guild_id) VALUES ($1)', [HISTORY_GUILD]);
  for (const { table, columns, types, rows } of HISTORY_ROWS) {
    const unnest = types.map((type, c) => `$${c + 1}::${type}[]`).join(', ');
    const text = `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest})`;
    await client.query('BEGIN');
    for (const chunk of chunksOf(rows())) {
      await client.query(
        text,
        columns.map((_, c) => chunk.map((row) => row[c])),
      );
    }
    await client.query('COMMIT');
  }
}
