/** The kinds of infraction, mildest first, as /staff infraction offers them. */
export const INFRACTION_TYPES = ['warning', 'strike', 'suspension', 'termination'] as const;
export type InfractionType = (typeof INFRACTION_TYPES)[number];

/** Who may act in a guild and where the cards go; null where an admin has not chosen. */
export interface StaffSettings {
  guildId: string;
  managerRoleId: string | null;
  logChannelId: string | null;
}

/** An infraction as /staff infraction gives it: once per `requestId` (the interaction's id). */
export interface NewInfraction {
  guildId: string;
  requestId: string;
  memberId: string;
  type: InfractionType;
  reason: string;
  evidence: string | null;
  givenBy: string;
  givenAt: number;
  /** When it stops counting (a strike's expiry); null: it does not. */
  expiresAt: number | null;
}

/** Who voided an infraction, when and why: the infraction stays, struck through. */
export interface Voiding {
  by: string;
  at: number;
  reason: string;
}

/** Where a card was posted. */
export interface PostedCard {
  channelId: string;
  messageId: string;
}

/** An infraction kept: its number within the guild, its voiding if voided, its card once posted. */
export interface Infraction extends NewInfraction {
  number: number;
  voided: Voiding | null;
  card: PostedCard | null;
}

export type PromotionDirection = 'promote' | 'demote';

/** A promotion or demotion as /staff promote|demote asks it: once per `requestId` (the interaction's id). */
export interface NewPromotion {
  guildId: string;
  requestId: string;
  memberId: string;
  direction: PromotionDirection;
  /** The rank role the member held (the highest of the ladder's), null: none. */
  fromRoleId: string | null;
  toRoleId: string;
  reason: string | null;
  givenBy: string;
  askedAt: number;
}

/** A promotion kept: `doneAt` once Discord made the role change (null: asked, not confirmed). */
export interface Promotion extends NewPromotion {
  doneAt: number | null;
  card: PostedCard | null;
}

/** Everything a guild keeps here, as migrate-store copies it. */
export interface StaffGuildRows {
  settings: StaffSettings;
  ranks: string[];
  infractions: Infraction[];
  promotions: Promotion[];
}

/** The staff actions' part of the store: settings, the rank ladder, infractions and promotions. */
export interface StaffActionsStore {
  settingsOf(guildId: string): Promise<StaffSettings>;
  setManagerRole(guildId: string, roleId: string | null): Promise<void>;
  setLogChannel(guildId: string, channelId: string | null): Promise<void>;
  /** The ladder's rank roles, lowest first. */
  ranksOf(guildId: string): Promise<string[]>;
  /** Replaces the ladder (lowest first; empty: none). */
  setRanks(guildId: string, roleIds: readonly string[]): Promise<void>;

  /**
   * Writes the infraction once: a second call with the same guild and request id writes nothing and answers the
   * first one's row (`created` false).
   */
  giveInfraction(infraction: NewInfraction): Promise<{ infraction: Infraction; created: boolean }>;
  infraction(guildId: string, number: number): Promise<Infraction | undefined>;
  /** Voids it if it is not voided yet; false when it was (or is not there). */
  voidInfraction(guildId: string, number: number, voiding: Voiding): Promise<boolean>;
  noteInfractionCard(guildId: string, number: number, card: PostedCard): Promise<void>;
  /** The member's infractions, newest first. */
  infractionsOf(guildId: string, memberId: string): Promise<Infraction[]>;

  /**
   * Writes the promotion as asked once: a second call with the same guild and request id writes nothing and
   * answers the first one's row (`created` false).
   */
  askPromotion(promotion: NewPromotion): Promise<{ promotion: Promotion; created: boolean }>;
  /** The promotion asked by this request (the interaction's id), if kept. */
  promotionOf(guildId: string, requestId: string): Promise<Promotion | undefined>;
  /** Discord made the role change: the promotion is done. */
  confirmPromotion(guildId: string, requestId: string, doneAt: number): Promise<void>;
  /** Discord refused the role change: nothing of it is kept. */
  dropPromotion(guildId: string, requestId: string): Promise<void>;
  notePromotionCard(guildId: string, requestId: string, card: PostedCard): Promise<void>;
  /** The member's promotions and demotions Discord made, newest first. */
  promotionsOf(guildId: string, memberId: string): Promise<Promotion[]>;

  /**
   * Deletes up to `limit` rows given before `before`, and promotions asked before `unconfirmedBefore` that never
   * were confirmed (a process that stopped between asking and confirming); how many.
   */
  sweep(before: number, unconfirmedBefore: number, limit: number): Promise<number>;
  /** Every guild with something here (settings, ranks, infractions, promotions). */
  keptGuilds(): Promise<string[]>;
  /** What migrate-store copies of a guild, and its writing into another store. */
  rowsOf(guildId: string): Promise<StaffGuildRows>;
  restoreRows(rows: StaffGuildRows): Promise<void>;
}
