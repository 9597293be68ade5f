import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner } from '../../../store/sql-runner.js';
import { columns, type RowOf } from '../../../store/table-columns.js';
import type { CoverageMinimum, CoverageSettings, DutySettings, DutyStore, RoleHolder } from './duty-store.js';

const DUTY = columns('duty_guild', 'guild_id', 'board_channel_id', 'board_message_id', 'role_id', 'role_set_by');
const HOLDER = columns('duty_role_holder', 'member_id', 'role_id', 'given_at');
const BOARD_ASKED = columns('duty_guild', 'board_asked_at');
const COVERAGE = columns('duty_guild', 'guild_id', 'min_staff', 'min_after_minutes', 'uncovered_since');

/** The duty feature's statements, written once for both engines. */
function dutyStatements(d: SqlDialect) {
  return {
    settingsOf: d.select(DUTY).from<[string]>('duty_guild WHERE guild_id = ?'),
    // A guild whose role was turned off still has members to take it from until its holders are gone.
    configured: d.select(DUTY).from<[]>(
      `duty_guild WHERE board_channel_id IS NOT NULL OR role_id IS NOT NULL
         OR EXISTS (SELECT 1 FROM duty_role_holder h WHERE h.guild_id = duty_guild.guild_id) ORDER BY guild_id`,
    ),
    setBoardChannel: d.sql<never, [string, string | null]>(
      `INSERT INTO duty_guild (guild_id, board_channel_id) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET board_channel_id = excluded.board_channel_id, board_message_id = NULL,
         board_asked_at = NULL`,
    ),
    setBoardMessage: d.sql<never, [string | null, string, string]>(
      'UPDATE duty_guild SET board_message_id = ?, board_asked_at = NULL WHERE guild_id = ? AND board_channel_id = ?',
    ),
    // The first try's time stays: a later try counts Discord's nonce window from it.
    askBoardPost: d.sql<never, [number, string, string]>(
      'UPDATE duty_guild SET board_asked_at = COALESCE(board_asked_at, ?) WHERE guild_id = ? AND board_channel_id = ?',
    ),
    boardAskedAt: d
      .select(BOARD_ASKED)
      .from<[string, string]>('duty_guild WHERE guild_id = ? AND board_channel_id = ?'),
    setRole: d.sql<never, [string, string | null, string | null]>(
      `INSERT INTO duty_guild (guild_id, role_id, role_set_by) VALUES (?, ?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET role_id = excluded.role_id, role_set_by = excluded.role_set_by`,
    ),
    // A guild's holders are the members on shift (and, for a moment, those of a role just changed): a few rows.
    roleHoldersOf: d.select(HOLDER).from<[string]>('duty_role_holder WHERE guild_id = ? ORDER BY member_id, role_id'),
    noteRoleHolder: d.sql<never, [string, string, string, number | null]>(
      `INSERT INTO duty_role_holder (guild_id, member_id, role_id, given_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (guild_id, member_id, role_id) DO UPDATE SET given_at = excluded.given_at`,
    ),
    forgetRoleHolder: d.sql<never, [string, string, string]>(
      'DELETE FROM duty_role_holder WHERE guild_id = ? AND member_id = ? AND role_id = ?',
    ),
    coverageOf: d.select(COVERAGE).from<[string]>('duty_guild WHERE guild_id = ?'),
    guarded: d.select(COVERAGE).from<[]>('duty_guild WHERE min_staff IS NOT NULL ORDER BY guild_id'),
    setMinimum: d.sql<never, [string, number | null, number | null]>(
      `INSERT INTO duty_guild (guild_id, min_staff, min_after_minutes) VALUES (?, ?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET min_staff = excluded.min_staff,
         min_after_minutes = excluded.min_after_minutes, uncovered_since = NULL`,
    ),
    setUncoveredSince: d.sql<never, [number | null, string]>(
      'UPDATE duty_guild SET uncovered_since = ? WHERE guild_id = ? AND min_staff IS NOT NULL',
    ),
  };
}

/** The duty store on either engine, over the store's SQL runner. */
export class SqlDutyStore implements DutyStore {
  private readonly sql: ReturnType<typeof dutyStatements>;

  constructor(
    d: SqlDialect,
    private readonly runner: SqlRunner,
  ) {
    this.sql = dutyStatements(d);
  }

  async settingsOf(guildId: string): Promise<DutySettings> {
    const [row] = await this.runner.read(this.sql.settingsOf, [guildId]);
    return row
      ? toSettings(row)
      : { guildId, boardChannelId: null, boardMessageId: null, roleId: null, roleSetBy: null };
  }

  async listConfigured(): Promise<DutySettings[]> {
    return (await this.runner.read(this.sql.configured, [])).map(toSettings);
  }

  async setBoardChannel(guildId: string, channelId: string | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setBoardChannel, params: [guildId, channelId] }]);
  }

  async setBoardMessage(guildId: string, channelId: string, messageId: string | null): Promise<boolean> {
    const changed = await this.runner.write([
      { sql: this.sql.setBoardMessage, params: [messageId, guildId, channelId] },
    ]);
    return changed > 0;
  }

  async askBoardPost(guildId: string, channelId: string, now: number): Promise<number | undefined> {
    await this.runner.write([{ sql: this.sql.askBoardPost, params: [now, guildId, channelId] }]);
    const [row] = await this.runner.read(this.sql.boardAskedAt, [guildId, channelId]);
    return row?.board_asked_at ?? undefined;
  }

  async setRole(guildId: string, roleId: string | null, setBy: string | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setRole, params: [guildId, roleId, roleId === null ? null : setBy] }]);
  }

  async roleHoldersOf(guildId: string): Promise<RoleHolder[]> {
    return (await this.runner.read(this.sql.roleHoldersOf, [guildId])).map((row) => ({
      memberId: row.member_id,
      roleId: row.role_id,
      givenAt: row.given_at,
    }));
  }

  async noteRoleHolder(guildId: string, holder: RoleHolder): Promise<void> {
    const params: [string, string, string, number | null] = [guildId, holder.memberId, holder.roleId, holder.givenAt];
    await this.runner.write([{ sql: this.sql.noteRoleHolder, params }]);
  }

  async forgetRoleHolder(guildId: string, memberId: string, roleId: string): Promise<void> {
    await this.runner.write([{ sql: this.sql.forgetRoleHolder, params: [guildId, memberId, roleId] }]);
  }

  async coverageOf(guildId: string): Promise<CoverageSettings> {
    const [row] = await this.runner.read(this.sql.coverageOf, [guildId]);
    return row ? toCoverage(row) : { guildId, minimum: null, uncoveredSince: null };
  }

  async listGuarded(): Promise<CoverageSettings[]> {
    return (await this.runner.read(this.sql.guarded, [])).map(toCoverage);
  }

  async setMinimum(guildId: string, minimum: CoverageMinimum | null): Promise<void> {
    const params = [guildId, minimum?.staff ?? null, minimum?.afterMinutes ?? null] as [
      string,
      number | null,
      number | null,
    ];
    await this.runner.write([{ sql: this.sql.setMinimum, params }]);
  }

  async setUncoveredSince(guildId: string, since: number | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setUncoveredSince, params: [since, guildId] }]);
  }
}

function toCoverage(row: RowOf<typeof COVERAGE>): CoverageSettings {
  return {
    guildId: row.guild_id,
    minimum: row.min_staff === null ? null : { staff: row.min_staff, afterMinutes: row.min_after_minutes ?? 0 },
    uncoveredSince: row.uncovered_since,
  };
}

function toSettings(row: RowOf<typeof DUTY>): DutySettings {
  return {
    guildId: row.guild_id,
    boardChannelId: row.board_channel_id,
    boardMessageId: row.board_message_id,
    roleId: row.role_id,
    roleSetBy: row.role_set_by,
  };
}
