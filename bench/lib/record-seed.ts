import type { Database } from 'better-sqlite3';
import type pg from 'pg';

import { nameKeyOf } from '../../src/features/record/store/record-merge.js';

/**
 * A community record of the size issue 24 names, made row by row from a fixed seed (the same rows on both
 * engines, every run), written straight into the record's tables in big transactions:
 *
 * - record_case: 1,000,000 cases over 100 guilds (10,000 each, 2 game servers each), in time order across the
 *   guilds as the writer would have merged them (so a player's cases lie scattered over the table), `at` spread
 *   over a year. In each guild 2 players have 200 cases each (the players looked up: one in the first half of
 *   the year, one in the second); the other 9,600 cases name 2,400 players, some far more often than others;
 *   30 moderators; about 3 % voided.
 * - record_player: every player the cases name, with the latest name and when it was last seen.
 * - record_shift: 100,000 shifts in one guild over the same year (about 8,300 a month), 300 members.
 */
export const GUILDS = 100;
export const CASES = 1_000_000;
export const LOOKED_UP_PER_GUILD = 2;
export const LOOKED_UP_CASES = 200;
const OTHER_PLAYERS = 2_400;
const MODERATORS = 30;
export const SHIFTS = 100_000;
export const SHIFT_MEMBERS = 300;

export const YEAR_START = Date.UTC(2025, 10, 1);
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const CASE_TYPES = ['warn', 'warn', 'warn', 'kick', 'kick', 'ban', 'tempban', 'mute'];
const REASONS = [
  'exploiting in the main area',
  'random death match near spawn, warned twice before',
  'harassing another player in chat',
  'fail roleplay during a traffic stop',
  'vehicle ramming at the bank',
];

/** Rows written per statement (SQLite: per transaction too). */
const CHUNK = 20_000;

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

/** A Discord-like snowflake id, 18 digits. */
function snowflake(kind: number, n: number): string {
  return `${kind}${String(n).padStart(17, '0')}`;
}

export function guildIdOf(g: number): string {
  return snowflake(1, g);
}

/** Roblox ids: digits, each guild's players their own range. */
function playerIdOf(g: number, p: number): string {
  return String(10_000_000 + g * 100_000 + p);
}

function playerNameOf(g: number, p: number): string {
  return p < LOOKED_UP_PER_GUILD ? `Repeat_Offender_${g}_${p}` : `Player${playerIdOf(g, p)}`;
}

/** A player looked up: one of the players with {@link LOOKED_UP_CASES} cases. */
export interface LookedUp {
  guildId: string;
  playerId: string;
  name: string;
}

export function lookedUpPlayer(g: number, k: number): LookedUp {
  return { guildId: guildIdOf(g), playerId: playerIdOf(g, k), name: playerNameOf(g, k) };
}

/** A player with a handful of cases, for warming up on other rows than the ones measured. */
export function otherPlayer(g: number, p: number): LookedUp {
  const q = LOOKED_UP_PER_GUILD + (p % OTHER_PLAYERS);
  return { guildId: guildIdOf(g), playerId: playerIdOf(g, q), name: playerNameOf(g, q) };
}

/** The guild with the shifts. */
export const SHIFT_GUILD = guildIdOf(0);

/** A table's columns and rows, as both engines' writers take them. */
export interface TableRows {
  table: string;
  columns: readonly string[];
  /** PostgreSQL's type of each column, for unnest. */
  types: readonly string[];
  count: number;
  chunks: () => Generator<unknown[][]>;
}

const CASE_COLUMNS = [
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
] as const;
const CASE_TYPES_PG = [
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
];

function* caseChunks(): Generator<unknown[][]> {
  const next = random(24);
  const perGuild = CASES / GUILDS;
  // Every 25th case of a guild names one of the two players looked up: the first 200 of them the first player
  // (gone by mid-year), the next 200 the second (seen up to the year's last days).
  const every = perGuild / (LOOKED_UP_PER_GUILD * LOOKED_UP_CASES);
  let rows: unknown[][] = [];
  for (let t = 0; t < CASES; t += 1) {
    const g = t % GUILDS;
    const i = Math.floor(t / GUILDS);
    const at = YEAR_START + Math.floor(((t + next()) / CASES) * YEAR_MS);
    const server = i % 2;
    // Some players come back far more often than others (a squared uniform leans to the low numbers).
    const p =
      i % every === 0
        ? Math.floor(i / every / LOOKED_UP_CASES)
        : LOOKED_UP_PER_GUILD + Math.floor(next() ** 2 * OTHER_PLAYERS);
    const m = Math.floor(next() * MODERATORS);
    const voided = next() < 0.03;
    rows.push([
      guildIdOf(g),
      String(4_821_337 + g * 10 + server),
      Math.floor(i / 2) + 1,
      at,
      CASE_TYPES[Math.floor(next() * CASE_TYPES.length)],
      playerIdOf(g, p),
      playerNameOf(g, p),
      snowflake(2, g * 1000 + m),
      `Moderator ${m}`,
      REASONS[Math.floor(next() * REASONS.length)],
      at,
      voided ? at + 3_600_000 : null,
      voided ? snowflake(2, g * 1000 + ((m + 1) % MODERATORS)) : null,
    ]);
    if (rows.length === CHUNK) {
      yield rows;
      rows = [];
    }
  }
  if (rows.length > 0) yield rows;
}

/**
 * When each player was last named: the first player looked up at mid-year, the second in the year's last days,
 * the others (a few cases each) any time in the year.
 */
function* playerChunks(): Generator<unknown[][]> {
  const next = random(42);
  let rows: unknown[][] = [];
  for (let g = 0; g < GUILDS; g += 1) {
    for (let p = 0; p < LOOKED_UP_PER_GUILD + OTHER_PLAYERS; p += 1) {
      const name = playerNameOf(g, p);
      const share = p === 0 ? 0.5 : p === 1 ? 0.999 : next();
      rows.push([guildIdOf(g), playerIdOf(g, p), name, nameKeyOf(name), YEAR_START + Math.floor(share * YEAR_MS)]);
      if (rows.length === CHUNK) {
        yield rows;
        rows = [];
      }
    }
  }
  if (rows.length > 0) yield rows;
}

function* shiftChunks(): Generator<unknown[][]> {
  const next = random(2024);
  let rows: unknown[][] = [];
  for (let s = 0; s < SHIFTS; s += 1) {
    const at = YEAR_START + Math.floor(((s + next()) / SHIFTS) * YEAR_MS);
    const m = Math.floor(next() * SHIFT_MEMBERS);
    const seconds = 600 + Math.floor(next() * 4 * 3600);
    rows.push([
      SHIFT_GUILD,
      String(4_821_337 + (s % 2)),
      Math.floor(s / 2) + 1,
      at,
      snowflake(3, m),
      `Staff member ${m}`,
      String(20_000_000 + m),
      at,
      at + seconds * 1000,
      seconds,
    ]);
    if (rows.length === CHUNK) {
      yield rows;
      rows = [];
    }
  }
  if (rows.length > 0) yield rows;
}

export const RECORD_ROWS: readonly TableRows[] = [
  { table: 'record_case', columns: CASE_COLUMNS, types: CASE_TYPES_PG, count: CASES, chunks: caseChunks },
  {
    table: 'record_player',
    columns: ['guild_id', 'player_id', 'name', 'name_key', 'at'],
    types: ['text', 'text', 'text', 'text', 'bigint'],
    count: GUILDS * (LOOKED_UP_PER_GUILD + OTHER_PLAYERS),
    chunks: playerChunks,
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
    chunks: shiftChunks,
  },
];

/** SQLite: one prepared INSERT per table, a transaction per chunk. */
export function seedSqlite(db: Database): void {
  db.prepare('INSERT INTO record_guild (guild_id) VALUES (?)').run(guildIdOf(0));
  const guild = db.prepare('INSERT OR IGNORE INTO record_guild (guild_id) VALUES (?)');
  for (let g = 1; g < GUILDS; g += 1) guild.run(guildIdOf(g));
  for (const { table, columns, chunks } of RECORD_ROWS) {
    const insert = db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
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
export async function seedPostgres(client: pg.Client): Promise<void> {
  await client.query('INSERT INTO record_guild (guild_id) SELECT unnest($1::text[])', [
    Array.from({ length: GUILDS }, (_, g) => guildIdOf(g)),
  ]);
  for (const { table, columns, types, chunks } of RECORD_ROWS) {
    const unnest = types.map((type, c) => `$${c + 1}::${type}[]`).join(', ');
    const text = `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest})`;
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
