import type { Database } from 'better-sqlite3';
import type pg from 'pg';

/**
 * One guild's community record of 1,000,000 cases, for /case evidence (bench/oversight-evidence.ts), made row by
 * row from a fixed seed (the same rows on both engines, every run), written straight into the record's tables:
 *
 * - record_case: 1,000,000 cases over a year on 4 game servers (each server numbers its own), in time order as the
 *   writer merges them; 20,000 players, some far more often than others (the busiest have thousands of cases);
 *   60 moderators; about 3 % voided; a third with evidence (a list of links, one of them now and then not a link).
 * - record_modcall: 520,000 calls: every 5th case's player called 1 to 3 times (a card) in the 15 minutes before it
 *   (most cards claimed, many resolved); 100,000 more by anyone at any time.
 * - record_shift: 150,000 shifts of 120 members over the year (about 17 on shift at any moment, over the servers),
 *   each a few hours.
 * - record_session: a session every 4 hours on each server, about 3 hours long (8,760).
 */
export const EVIDENCE_GUILD = '100000000000000077';
export const EVIDENCE_CASES = 1_000_000;
export const EVIDENCE_SERVERS = 4;
const PLAYERS = 20_000;
const MODERATORS = 60;
const MODCALLS = 520_000;
/** The calls of anyone, any time (the rest are cases' players' before their cases). */
const OTHER_CALLS = 100_000;
const SHIFTS = 150_000;
const STAFF = 120;
const SESSION_EVERY_MS = 4 * 3_600_000;

export const EVIDENCE_YEAR_START = Date.UTC(2025, 10, 1);
const YEAR_MS = 365 * 24 * 3_600_000;
const CASE_TYPES = ['warn', 'warn', 'warn', 'kick', 'kick', 'ban', 'tempban', 'mute'];
const REASONS = [
  'exploiting in the main area',
  'random death match near spawn, warned twice before',
  'harassing another player in chat',
  'fail roleplay during a traffic stop',
];
const CHUNK = 20_000;
/** Every 5th case's player called shortly before it: 200,000 cards. */
const CASES_WITH_CALLS_EVERY = 5;

/** A small seeded PRNG (mulberry32): the same record every run. */
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

export function serverOf(s: number): string {
  return String(4_821_337 + s);
}
function playerIdOf(p: number): string {
  return String(10_000_000 + p);
}
function staffIdOf(m: number): string {
  return `3${String(m).padStart(17, '0')}`;
}
function moderatorIdOf(m: number): string {
  // The first moderators are staff who clock in too: their shifts are found.
  return m < STAFF / 2 ? staffIdOf(m) : `2${String(m).padStart(17, '0')}`;
}

/** The case `t` (0-based, in time order): when, where, whose. Shared by the cases and the calls made before them. */
function caseAt(t: number, next: () => number) {
  const at = EVIDENCE_YEAR_START + Math.floor(((t + next()) / EVIDENCE_CASES) * YEAR_MS);
  const server = t % EVIDENCE_SERVERS;
  // A squared uniform leans to the low numbers: a few players come back very often.
  const player = Math.floor(next() ** 3 * PLAYERS);
  return { at, server, number: Math.floor(t / EVIDENCE_SERVERS) + 1, player };
}

/** A case the benchmark asks for: its number and server (each server numbers its own). */
export function askedCase(n: number): { number: number; server: string } {
  // Spread over the year, never the same twice in a run; each a case whose player called before it (modcallRows).
  const t = ((n * 7919) % 1000) * (EVIDENCE_CASES / 1000) + (n % 199) * CASES_WITH_CALLS_EVERY;
  return { number: Math.floor(t / EVIDENCE_SERVERS) + 1, server: serverOf(t % EVIDENCE_SERVERS) };
}

interface TableRows {
  table: string;
  columns: readonly string[];
  types: readonly string[];
  count: number;
  chunks: () => Generator<unknown[][]>;
}

function* chunked(rows: Iterable<unknown[]>): Generator<unknown[][]> {
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

function* caseRows(): Generator<unknown[]> {
  const next = random(46);
  for (let t = 0; t < EVIDENCE_CASES; t += 1) {
    const { at, server, number, player } = caseAt(t, next);
    const m = Math.floor(next() * MODERATORS);
    const voided = next() < 0.03;
    const evidence =
      t % 3 === 0
        ? JSON.stringify([`https://cdn.example.test/clips/${t}.mp4`, t % 30 === 0 ? 'javascript:alert(1)' : 'seen'])
        : null;
    yield [
      EVIDENCE_GUILD,
      serverOf(server),
      number,
      at,
      CASE_TYPES[Math.floor(next() * CASE_TYPES.length)],
      playerIdOf(player),
      `Player${playerIdOf(player)}`,
      moderatorIdOf(m),
      `Moderator ${m}`,
      REASONS[Math.floor(next() * REASONS.length)],
      at,
      voided ? at + 3_600_000 : null,
      voided ? moderatorIdOf((m + 1) % MODERATORS) : null,
      evidence,
    ];
  }
}

/** Most calls are a case's player's, a card of 1 to 3 calls in the 15 minutes before it; the rest anyone's, any time. */
function* modcallRows(): Generator<unknown[]> {
  const cases = random(46);
  const next = random(47);
  const every = CASES_WITH_CALLS_EVERY;
  let made = 0;
  for (let t = 0; t < EVIDENCE_CASES && made < MODCALLS - OTHER_CALLS; t += 1) {
    const found = caseAt(t, cases);
    // caseAt's draws, and the case's other draws (moderator, voided, type, reason), to stay in step with caseRows.
    cases();
    cases();
    cases();
    cases();
    if (t % every !== 0) continue;
    const first = found.at - Math.floor(next() * 14 * 60_000) - 60_000;
    const calls = 1 + Math.floor(next() * 3);
    const claimed = next() < 0.8;
    const resolved = claimed && next() < 0.6;
    const claimedAt = first + 30_000 + Math.floor(next() * 120_000);
    for (let c = 0; c < calls; c += 1) {
      made += 1;
      yield callRow(found.server, found.player, first + c * 20_000, first, claimed, claimedAt, resolved);
    }
  }
  for (; made < MODCALLS; made += 1) {
    const at = EVIDENCE_YEAR_START + Math.floor(next() * YEAR_MS);
    yield callRow(Math.floor(next() * EVIDENCE_SERVERS), Math.floor(next() * PLAYERS), at, at, false, 0, false);
  }
}

function callRow(
  server: number,
  player: number,
  at: number,
  cardAt: number,
  claimed: boolean,
  claimedAt: number,
  resolved: boolean,
): unknown[] {
  const by = staffIdOf(player % STAFF);
  return [
    EVIDENCE_GUILD,
    serverOf(server),
    playerIdOf(player),
    at,
    `Player${playerIdOf(player)}`,
    claimed ? by : null,
    claimed ? claimedAt : null,
    resolved ? by : null,
    resolved ? claimedAt + 300_000 : null,
    cardAt,
  ];
}

function* shiftRows(): Generator<unknown[]> {
  const next = random(48);
  for (let s = 0; s < SHIFTS; s += 1) {
    const at = EVIDENCE_YEAR_START + Math.floor(((s + next()) / SHIFTS) * YEAR_MS);
    const m = Math.floor(next() * STAFF);
    const seconds = 1800 + Math.floor(next() * 3 * 3600);
    const ended = next() < 0.99;
    yield [
      EVIDENCE_GUILD,
      serverOf(s % EVIDENCE_SERVERS),
      Math.floor(s / EVIDENCE_SERVERS) + 1,
      at,
      staffIdOf(m),
      `Staff member ${m}`,
      String(20_000_000 + m),
      at,
      ended ? at + seconds * 1000 : null,
      ended ? seconds : null,
    ];
  }
}

function* sessionRows(): Generator<unknown[]> {
  const next = random(49);
  let id = 0;
  for (let at = EVIDENCE_YEAR_START; at < EVIDENCE_YEAR_START + YEAR_MS; at += SESSION_EVERY_MS) {
    for (let s = 0; s < EVIDENCE_SERVERS; s += 1) {
      id += 1;
      const m = Math.floor(next() * STAFF);
      yield [
        EVIDENCE_GUILD,
        serverOf(s),
        id,
        at,
        `Patrol ${id}`,
        staffIdOf(m),
        `Staff member ${m}`,
        at,
        at + 3 * 3_600_000,
        Math.floor(next() * 60),
        Math.floor(next() * 200),
        Math.floor(next() * 20),
      ];
    }
  }
}

export const EVIDENCE_ROWS: readonly TableRows[] = [
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
      'evidence',
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
    ].concat(['text', 'text']),
    count: EVIDENCE_CASES,
    chunks: () => chunked(caseRows()),
  },
  {
    table: 'record_modcall',
    columns: [
      'guild_id',
      'server',
      'caller_id',
      'at',
      'caller_name',
      'claimed_by',
      'claimed_at',
      'resolved_by',
      'resolved_at',
      'card_at',
    ],
    types: ['text', 'text', 'text', 'bigint', 'text', 'text', 'bigint', 'text', 'bigint', 'bigint'],
    count: MODCALLS,
    chunks: () => chunked(modcallRows()),
  },
  {
    table: 'record_shift',
    columns: [
      'guild_id',
      'server',
      'shift_id',
      'at',
      'member_id',
      'member_name',
      'roblox_id',
      'started_at',
      'ended_at',
      'seconds',
    ],
    types: ['text', 'text', 'bigint', 'bigint', 'text', 'text', 'text', 'bigint', 'bigint', 'bigint'],
    count: SHIFTS,
    chunks: () => chunked(shiftRows()),
  },
  {
    table: 'record_session',
    columns: [
      'guild_id',
      'server',
      'session_id',
      'at',
      'name',
      'started_by_id',
      'started_by_name',
      'started_at',
      'ended_at',
      'peak_players',
      'joins',
      'cases',
    ],
    types: ['text', 'text', 'bigint', 'bigint', 'text', 'text', 'text', 'bigint', 'bigint', 'bigint', 'bigint'].concat([
      'bigint',
    ]),
    count: Math.ceil(YEAR_MS / SESSION_EVERY_MS) * EVIDENCE_SERVERS,
    chunks: () => chunked(sessionRows()),
  },
];

/** SQLite: one prepared INSERT per table, a transaction per chunk. Calls of one card at one time are one row. */
export function seedEvidenceSqlite(db: Database): void {
  db.prepare('INSERT INTO record_guild (guild_id) VALUES (?)').run(EVIDENCE_GUILD);
  for (const { table, columns, chunks } of EVIDENCE_ROWS) {
    const insert = db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`,
    );
    const writeChunk = db.transaction((rows: unknown[][]) => {
      for (const row of rows) insert.run(...row);
    });
    for (const rows of chunks()) writeChunk(rows);
  }
}

/**
 * PostgreSQL: one INSERT … SELECT FROM unnest(column arrays) per chunk, all of a table in one transaction, each commit
 * waiting for its WAL, so the VACUUM ANALYZE after the seed can mark the pages all-visible (staff-history-seed.ts
 * says why asynchronous commits left the visibility map empty).
 */
export async function seedEvidencePostgres(client: pg.Client): Promise<void> {
  await client.query('INSERT INTO record_guild (guild_id) VALUES ($1)', [EVIDENCE_GUILD]);
  for (const { table, columns, types, chunks } of EVIDENCE_ROWS) {
    const unnest = types.map((type, c) => `$${c + 1}::${type}[]`).join(', ');
    const text = `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest}) ON CONFLICT DO NOTHING`;
    await client.query('BEGIN');
    for (const rows of chunks()) {
      await client.query(
        text,
        columns.map((_, c) => rows.map((row) => row[c])),
      );
    }
    await client.query('COMMIT');
  }
}
