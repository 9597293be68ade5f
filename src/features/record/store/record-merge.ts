import { removeControlCharacters } from '../../../base/control-characters.js';
import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlGuard, SqlWrite } from '../../../store/sql-runner.js';
import { readStoredBody } from '../../../upstream/read-stored-body.js';
import { recordUpdateOf, type RecordUpdate } from '../../../upstream/record-update.js';
import type { ModcallHandling } from './community-record.js';
import type { RecordStatements, UnrecordedRow } from './record-statements.js';

/** The statements that merge one update of a guild's delivery (its game server: `server`, or '' for none). */
export function mergeWrites(
  statements: RecordStatements,
  guildId: string,
  server: string,
  update: RecordUpdate,
): SqlWrite[] {
  const s = statements;
  switch (update.kind) {
    case 'case': {
      const row = [guildId, server, update.number, update.at, update.type, update.targetId, update.targetName];
      const rest = [update.moderatorId, update.moderatorName, update.reason, update.createdAt, update.voidedAt];
      const writes = [{ sql: s.mergeCase, params: nulls([...row, ...rest, update.voidedBy, update.evidence]) }];
      if (update.targetId !== undefined && update.targetName !== undefined) {
        const player = [guildId, update.targetId, update.targetName, nameKeyOf(update.targetName), update.at];
        writes.push({ sql: s.mergePlayer, params: player });
      }
      return writes;
    }
    case 'shift': {
      const { id, at, memberId, memberName, robloxId, startedAt, endedAt, seconds } = update;
      const params = [guildId, server, id, at, memberId, memberName, robloxId, startedAt, endedAt, seconds];
      return [{ sql: s.mergeShift, params: nulls(params) }];
    }
    case 'session': {
      const { id, at, name, startedById, startedByName, startedAt, endedAt, peakPlayers, joins, cases } = update;
      const started = [guildId, server, id, at, name, startedById, startedByName, startedAt];
      return [{ sql: s.mergeSession, params: nulls([...started, endedAt, peakPlayers, joins, cases]) }];
    }
    case 'modcall':
      // The delivery does not know its card: the card tells the record (noteModcallHandled).
      return [{ sql: s.mergeModcall, params: modcallParams(guildId, server, update, {}, undefined) }];
  }
}

/**
 * The values {@link RecordStatements.mergeModcall} binds: the call, and what its card says of it (`cardAt`, its
 * card's first call; undefined where the card is not known).
 */
export function modcallParams(
  guildId: string,
  server: string,
  call: { callerId: string; at: number; callerName?: string | undefined },
  handled: ModcallHandling,
  cardAt: number | undefined,
): unknown[] {
  const { claimedBy, claimedAt, resolvedBy, resolvedAt } = handled;
  // A card's caller is read from its delivery's body as the feed read it: never a control character in a column.
  const callerName = call.callerName === undefined ? undefined : removeControlCharacters(call.callerName);
  return nulls([
    guildId,
    server,
    removeControlCharacters(call.callerId),
    call.at,
    callerName,
    claimedBy,
    claimedAt,
    resolvedBy,
    resolvedAt,
    cardAt,
  ]);
}

/** How a name is searched: lower case, so a lookup or a prefix matches whatever case it was typed in. */
export function nameKeyOf(name: string): string {
  return name.toLowerCase();
}

/** The end of a prefix's range of name keys: every key that starts with the prefix sorts below it. */
export function prefixEnd(prefix: string): string {
  return `${prefix}\u{10FFFF}`;
}

function nulls(values: unknown[]): unknown[] {
  return values.map((value) => value ?? null);
}

/** One update a pass merged: its guild and game server ('' for none), and what it told. */
export interface MergedUpdate {
  guildId: string;
  server: string;
  update: RecordUpdate;
}

/**
 * What another feature writes in the same transaction as a pass's merges, given what they merge (the conduct
 * guard notes the cases and shifts it is to judge): committed with the merges or not at all, so a crash between a
 * merge and what follows from it loses nothing. It must only build statements (no I/O), and be cheap.
 */
export type WritesWithMerges = (merged: readonly MergedUpdate[]) => SqlWrite[];

/** What one pass of the record's writer runs: the merges of what the deliveries tell, then their marks cleared. */
export interface RecordingPlan {
  /** The deliveries read, all still stored: merged only if so (see planRecording). */
  stillStored: SqlGuard;
  merges: SqlWrite[];
  markRecorded: SqlWrite | undefined;
  recorded: number;
  skipped: number;
  /** The guilds anything of these rows was merged for. */
  guilds: string[];
  /** The guilds a shift update of these rows was merged for (who is on shift may have changed). */
  shiftGuilds: string[];
  /** The guilds a session update of these rows was merged for (whether a session runs may have changed). */
  sessionGuilds: string[];
}

/**
 * The plan for `rows` (read in seq order, without a lock): what each delivery's body tells merged, each guild
 * noted once; then every row marked recorded, the ones whose body tells nothing usable too (counted as skipped: a
 * row that can never merge must not be read again at every pass). The merges commit first, the mark after, each
 * in a transaction of its own, so no lane of any process ever waits for the writer's merges: a writer stopped
 * between the two merges the same rows again next time, which changes nothing. The merges commit only if every
 * delivery read is still stored: a guild forgotten (the bot removed) since they were read has lost its deliveries,
 * and its record must not come back; the next pass reads again without them.
 */
export function planRecording(
  d: SqlDialect,
  statements: RecordStatements,
  rows: readonly UnrecordedRow[],
  withMerges?: WritesWithMerges,
): RecordingPlan {
  const merges: SqlWrite[] = [];
  const merged: MergedUpdate[] = [];
  // Each guild's oldest time merged: when it is due for the retention sweep (noteGuild).
  const guilds = new Map<string, number>();
  const shiftGuilds = new Set<string>();
  const sessionGuilds = new Set<string>();
  let skipped = 0;
  for (const row of rows) {
    const update = updateOf(row);
    if (!update) {
      skipped += 1;
      continue;
    }
    merges.push(...mergeWrites(statements, row.guild_id, row.server ?? '', update));
    if (withMerges) merged.push({ guildId: row.guild_id, server: row.server ?? '', update });
    guilds.set(row.guild_id, Math.min(update.at, guilds.get(row.guild_id) ?? Infinity));
    if (update.kind === 'shift') shiftGuilds.add(row.guild_id);
    if (update.kind === 'session') sessionGuilds.add(row.guild_id);
  }
  for (const [guildId, oldest] of guilds) merges.push({ sql: statements.noteGuild, params: [guildId, oldest] });
  if (withMerges && merged.length > 0) merges.push(...withMerges(merged));
  const markRecorded =
    rows.length === 0 ? undefined : { sql: statements.markRecorded, params: [d.list(rows.map((row) => row.seq))] };
  const seqs = rows.map((row) => row.seq);
  const stillStored = { sql: statements.stillStored, params: [d.list(seqs)], rows: seqs.length };
  const recorded = rows.length - skipped;
  return {
    stillStored,
    merges,
    markRecorded,
    recorded,
    skipped,
    guilds: [...guilds.keys()],
    shiftGuilds: [...shiftGuilds],
    sessionGuilds: [...sessionGuilds],
  };
}

/** What the delivery's body tells the record, read as leniently as the intake reads its routing keys. */
function updateOf(row: UnrecordedRow): RecordUpdate | undefined {
  if (row.raw_body === null) return undefined;
  const json = readStoredBody(row.raw_body);
  // No schema pass: recordUpdateOf reads each field it uses and leaves out what is not of its type.
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const { at, data } = json as { at?: unknown; data?: unknown };
  return recordUpdateOf({ id: '', event: row.event, at, data });
}
