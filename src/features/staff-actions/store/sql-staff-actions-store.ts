import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner, SqlWrite } from '../../../store/sql-runner.js';
import { columns, type RowOf } from '../../../store/table-columns.js';
import type {
  Infraction,
  InfractionType,
  NewInfraction,
  NewPromotion,
  PostedCard,
  Promotion,
  PromotionDirection,
  StaffActionsStore,
  StaffGuildRows,
  StaffSettings,
  Voiding,
} from './staff-actions-store.js';

const SETTINGS = columns('staff_guild', 'manager_role_id', 'log_channel_id');
const INFRACTION = columns(
  'staff_infraction',
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
  'card_channel_id',
  'card_message_id',
);
const PROMOTION = columns(
  'staff_promotion',
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
  'card_channel_id',
  'card_message_id',
);

/** A number taken at once by another process's infraction is tried again: how often at most. */
const NUMBER_TRIES = 5;

type InfractionParams = [
  string,
  string,
  string,
  string,
  string,
  string | null,
  string,
  number,
  number | null,
  string | null,
  number | null,
  string | null,
  string | null,
  string | null,
];

/** The staff actions' statements, written once for both engines. */
function staffStatements(d: SqlDialect) {
  const insertInfraction = `INSERT INTO staff_infraction (guild_id, number, request_id, member_id, type, reason, evidence, given_by,
       given_at, expires_at, voided_by, voided_at, void_reason, card_channel_id, card_message_id)`;
  return {
    settingsOf: d.select(SETTINGS).from<[string]>('staff_guild WHERE guild_id = ?'),
    setManagerRole: d.sql<never, [string, string | null]>(
      `INSERT INTO staff_guild (guild_id, manager_role_id) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET manager_role_id = excluded.manager_role_id`,
    ),
    setLogChannel: d.sql<never, [string, string | null]>(
      `INSERT INTO staff_guild (guild_id, log_channel_id) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET log_channel_id = excluded.log_channel_id`,
    ),
    ranksOf: d.sql<{ role_id: string }, [string]>(
      'SELECT role_id FROM staff_rank WHERE guild_id = ? ORDER BY position',
    ),
    clearRanks: d.sql<never, [string]>('DELETE FROM staff_rank WHERE guild_id = ?'),
    addRank: d.sql<never, [string, string, number]>(
      'INSERT INTO staff_rank (guild_id, role_id, position) VALUES (?, ?, ?)',
    ),
    // The next number of the guild, taken in the statement that writes it; a request id already written writes
    // nothing (its row is read instead). The times are cast: PostgreSQL reads a SELECT's parameters as text.
    giveInfraction: d.sql<never, [...InfractionParams, string]>(
      `${insertInfraction}
       SELECT ?, COALESCE(max(number), 0) + 1, ?, ?, ?, ?, ?, ?, CAST(? AS BIGINT), CAST(? AS BIGINT), ?,
              CAST(? AS BIGINT), ?, ?, ?
       FROM staff_infraction WHERE guild_id = ?
       ON CONFLICT (guild_id, request_id) DO NOTHING`,
    ),
    restoreInfraction: d.sql<never, [string, number, ...Tail<InfractionParams>]>(
      `${insertInfraction} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, number) DO NOTHING`,
    ),
    infractionByRequest: d
      .select(INFRACTION)
      .from<[string, string]>('staff_infraction WHERE guild_id = ? AND request_id = ?'),
    infraction: d.select(INFRACTION).from<[string, number]>('staff_infraction WHERE guild_id = ? AND number = ?'),
    voidInfraction: d.sql<never, [string, number, string, string, number]>(
      `UPDATE staff_infraction SET voided_by = ?, voided_at = ?, void_reason = ?
       WHERE guild_id = ? AND number = ? AND voided_at IS NULL`,
    ),
    noteInfractionCard: d.sql<never, [string, string, string, number]>(
      'UPDATE staff_infraction SET card_channel_id = ?, card_message_id = ? WHERE guild_id = ? AND number = ?',
    ),
    infractionsOf: d
      .select(INFRACTION)
      .from<[string, string]>(
        'staff_infraction WHERE guild_id = ? AND member_id = ? ORDER BY given_at DESC, number DESC',
      ),
    guildInfractions: d.select(INFRACTION).from<[string]>('staff_infraction WHERE guild_id = ? ORDER BY number'),
    askPromotion: d.sql<never, PromotionParams>(
      `INSERT INTO staff_promotion (guild_id, request_id, member_id, direction, from_role_id, to_role_id, reason,
         given_by, asked_at, done_at, card_channel_id, card_message_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, request_id) DO NOTHING`,
    ),
    promotionByRequest: d
      .select(PROMOTION)
      .from<[string, string]>('staff_promotion WHERE guild_id = ? AND request_id = ?'),
    confirmPromotion: d.sql<never, [number, string, string]>(
      'UPDATE staff_promotion SET done_at = ? WHERE guild_id = ? AND request_id = ? AND done_at IS NULL',
    ),
    dropPromotion: d.sql<never, [string, string]>(
      'DELETE FROM staff_promotion WHERE guild_id = ? AND request_id = ? AND done_at IS NULL',
    ),
    notePromotionCard: d.sql<never, [string, string, string, string]>(
      'UPDATE staff_promotion SET card_channel_id = ?, card_message_id = ? WHERE guild_id = ? AND request_id = ?',
    ),
    promotionsOf: d
      .select(PROMOTION)
      .from<[string, string]>(
        'staff_promotion WHERE guild_id = ? AND member_id = ? AND done_at IS NOT NULL ORDER BY asked_at DESC, request_id',
      ),
    guildPromotions: d.select(PROMOTION).from<[string]>('staff_promotion WHERE guild_id = ? ORDER BY asked_at'),
    // Bounded slices by the time indexes: the oldest first, `limit` at a time.
    sweepInfractions: d.sql<never, [number, number]>(
      `DELETE FROM staff_infraction WHERE (guild_id, number) IN (
         SELECT guild_id, number FROM staff_infraction WHERE given_at < ? ORDER BY given_at LIMIT ?)`,
    ),
    sweepPromotions: d.sql<never, [number, number, number]>(
      `DELETE FROM staff_promotion WHERE (guild_id, request_id) IN (
         SELECT guild_id, request_id FROM staff_promotion
         WHERE asked_at < ? OR (done_at IS NULL AND asked_at < ?) ORDER BY asked_at LIMIT ?)`,
    ),
    keptGuilds: d.sql<{ guild_id: string }, []>(
      `SELECT guild_id FROM staff_guild UNION SELECT guild_id FROM staff_rank
       UNION SELECT guild_id FROM staff_infraction UNION SELECT guild_id FROM staff_promotion`,
    ),
  };
}

type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;
type PromotionParams = [
  string,
  string,
  string,
  string,
  string | null,
  string,
  string | null,
  string,
  number,
  number | null,
  string | null,
  string | null,
];

/** The staff actions' store on either engine, over the store's SQL runner. */
export class SqlStaffActionsStore implements StaffActionsStore {
  private readonly sql: ReturnType<typeof staffStatements>;

  constructor(
    d: SqlDialect,
    private readonly runner: SqlRunner,
  ) {
    this.sql = staffStatements(d);
  }

  async settingsOf(guildId: string): Promise<StaffSettings> {
    const [row] = await this.runner.read(this.sql.settingsOf, [guildId]);
    return { guildId, managerRoleId: row?.manager_role_id ?? null, logChannelId: row?.log_channel_id ?? null };
  }

  async setManagerRole(guildId: string, roleId: string | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setManagerRole, params: [guildId, roleId] }]);
  }

  async setLogChannel(guildId: string, channelId: string | null): Promise<void> {
    await this.runner.write([{ sql: this.sql.setLogChannel, params: [guildId, channelId] }]);
  }

  async ranksOf(guildId: string): Promise<string[]> {
    return (await this.runner.read(this.sql.ranksOf, [guildId])).map((row) => row.role_id);
  }

  async setRanks(guildId: string, roleIds: readonly string[]): Promise<void> {
    const writes: SqlWrite[] = [{ sql: this.sql.clearRanks, params: [guildId] }];
    roleIds.forEach((roleId, position) => writes.push({ sql: this.sql.addRank, params: [guildId, roleId, position] }));
    await this.runner.write(writes);
  }

  async giveInfraction(infraction: NewInfraction): Promise<{ infraction: Infraction; created: boolean }> {
    const params: [...InfractionParams, string] = [
      ...infractionParams({ ...infraction, voided: null, card: null }),
      infraction.guildId,
    ];
    for (let tries = 1; ; tries++) {
      try {
        const written = await this.runner.write([{ sql: this.sql.giveInfraction, params }]);
        const found = await this.byRequest(infraction.guildId, infraction.requestId);
        if (found) return { infraction: found, created: written > 0 };
        throw new Error('the infraction written was not found');
      } catch (error) {
        // Another process took the same number at the same moment (PostgreSQL): this request's row is not there,
        // so the next number is taken again. A request already written is found and answered.
        const found = await this.byRequest(infraction.guildId, infraction.requestId);
        if (found) return { infraction: found, created: false };
        if (tries >= NUMBER_TRIES) throw error;
      }
    }
  }

  async infraction(guildId: string, number: number): Promise<Infraction | undefined> {
    const [row] = await this.runner.read(this.sql.infraction, [guildId, number]);
    return row && toInfraction(row);
  }

  async voidInfraction(guildId: string, number: number, voiding: Voiding): Promise<boolean> {
    const params: [string, number, string, string, number] = [voiding.by, voiding.at, voiding.reason, guildId, number];
    return (await this.runner.write([{ sql: this.sql.voidInfraction, params }])) > 0;
  }

  async noteInfractionCard(guildId: string, number: number, card: PostedCard): Promise<void> {
    const params: [string, string, string, number] = [card.channelId, card.messageId, guildId, number];
    await this.runner.write([{ sql: this.sql.noteInfractionCard, params }]);
  }

  async infractionsOf(guildId: string, memberId: string): Promise<Infraction[]> {
    return (await this.runner.read(this.sql.infractionsOf, [guildId, memberId])).map(toInfraction);
  }

  async askPromotion(promotion: NewPromotion): Promise<{ promotion: Promotion; created: boolean }> {
    const params = promotionParams({ ...promotion, doneAt: null, card: null });
    const written = await this.runner.write([{ sql: this.sql.askPromotion, params }]);
    const [row] = await this.runner.read(this.sql.promotionByRequest, [promotion.guildId, promotion.requestId]);
    if (!row) throw new Error('the promotion asked was not found');
    return { promotion: toPromotion(row), created: written > 0 };
  }

  async promotionOf(guildId: string, requestId: string): Promise<Promotion | undefined> {
    const [row] = await this.runner.read(this.sql.promotionByRequest, [guildId, requestId]);
    return row && toPromotion(row);
  }

  async confirmPromotion(guildId: string, requestId: string, doneAt: number): Promise<void> {
    await this.runner.write([{ sql: this.sql.confirmPromotion, params: [doneAt, guildId, requestId] }]);
  }

  async dropPromotion(guildId: string, requestId: string): Promise<void> {
    await this.runner.write([{ sql: this.sql.dropPromotion, params: [guildId, requestId] }]);
  }

  async notePromotionCard(guildId: string, requestId: string, card: PostedCard): Promise<void> {
    const params: [string, string, string, string] = [card.channelId, card.messageId, guildId, requestId];
    await this.runner.write([{ sql: this.sql.notePromotionCard, params }]);
  }

  async promotionsOf(guildId: string, memberId: string): Promise<Promotion[]> {
    return (await this.runner.read(this.sql.promotionsOf, [guildId, memberId])).map(toPromotion);
  }

  async sweep(before: number, unconfirmedBefore: number, limit: number): Promise<number> {
    const infractions = await this.runner.write([{ sql: this.sql.sweepInfractions, params: [before, limit] }]);
    const promotions = await this.runner.write([
      { sql: this.sql.sweepPromotions, params: [before, unconfirmedBefore, limit] },
    ]);
    return infractions + promotions;
  }

  async keptGuilds(): Promise<string[]> {
    return (await this.runner.read(this.sql.keptGuilds, [])).map((row) => row.guild_id).sort();
  }

  async rowsOf(guildId: string): Promise<StaffGuildRows> {
    const [settings, ranks, infractions, promotions] = await Promise.all([
      this.settingsOf(guildId),
      this.ranksOf(guildId),
      this.runner.read(this.sql.guildInfractions, [guildId]),
      this.runner.read(this.sql.guildPromotions, [guildId]),
    ]);
    return { settings, ranks, infractions: infractions.map(toInfraction), promotions: promotions.map(toPromotion) };
  }

  async restoreRows(rows: StaffGuildRows): Promise<void> {
    const { guildId } = rows.settings;
    const writes: SqlWrite[] = [
      { sql: this.sql.setManagerRole, params: [guildId, rows.settings.managerRoleId] },
      { sql: this.sql.setLogChannel, params: [guildId, rows.settings.logChannelId] },
      { sql: this.sql.clearRanks, params: [guildId] },
      ...rows.ranks.map((roleId, position) => ({ sql: this.sql.addRank, params: [guildId, roleId, position] })),
      ...rows.infractions.map((infraction) => {
        const [, ...rest] = infractionParams(infraction);
        return { sql: this.sql.restoreInfraction, params: [guildId, infraction.number, ...rest] };
      }),
      ...rows.promotions.map((promotion) => ({ sql: this.sql.askPromotion, params: promotionParams(promotion) })),
    ];
    await this.runner.write(writes);
  }

  private async byRequest(guildId: string, requestId: string): Promise<Infraction | undefined> {
    const [row] = await this.runner.read(this.sql.infractionByRequest, [guildId, requestId]);
    return row && toInfraction(row);
  }
}

function infractionParams(infraction: Omit<Infraction, 'number'>): InfractionParams {
  return [
    infraction.guildId,
    infraction.requestId,
    infraction.memberId,
    infraction.type,
    infraction.reason,
    infraction.evidence,
    infraction.givenBy,
    infraction.givenAt,
    infraction.expiresAt,
    infraction.voided?.by ?? null,
    infraction.voided?.at ?? null,
    infraction.voided?.reason ?? null,
    infraction.card?.channelId ?? null,
    infraction.card?.messageId ?? null,
  ];
}

function promotionParams(promotion: Promotion): PromotionParams {
  return [
    promotion.guildId,
    promotion.requestId,
    promotion.memberId,
    promotion.direction,
    promotion.fromRoleId,
    promotion.toRoleId,
    promotion.reason,
    promotion.givenBy,
    promotion.askedAt,
    promotion.doneAt,
    promotion.card?.channelId ?? null,
    promotion.card?.messageId ?? null,
  ];
}

function toInfraction(row: RowOf<typeof INFRACTION>): Infraction {
  return {
    guildId: row.guild_id,
    number: row.number,
    requestId: row.request_id,
    memberId: row.member_id,
    type: row.type as InfractionType,
    reason: row.reason,
    evidence: row.evidence,
    givenBy: row.given_by,
    givenAt: row.given_at,
    expiresAt: row.expires_at,
    voided:
      row.voided_at === null ? null : { by: row.voided_by ?? '', at: row.voided_at, reason: row.void_reason ?? '' },
    card: cardOf(row.card_channel_id, row.card_message_id),
  };
}

function toPromotion(row: RowOf<typeof PROMOTION>): Promotion {
  return {
    guildId: row.guild_id,
    requestId: row.request_id,
    memberId: row.member_id,
    direction: row.direction as PromotionDirection,
    fromRoleId: row.from_role_id,
    toRoleId: row.to_role_id,
    reason: row.reason,
    givenBy: row.given_by,
    askedAt: row.asked_at,
    doneAt: row.done_at,
    card: cardOf(row.card_channel_id, row.card_message_id),
  };
}

function cardOf(channelId: string | null, messageId: string | null): PostedCard | null {
  return channelId === null || messageId === null ? null : { channelId, messageId };
}
