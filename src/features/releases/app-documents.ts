import { z } from 'zod';

/**
 * Everything the developer-API features keep between restarts, behind one small port, implemented on the store's
 * documents (app-documents-on.ts: SQLite or PostgreSQL, shared by every process). Every document is plain JSON
 * checked by its zod schema on the way out.
 *
 * Contract for implementations: `updateGuild` and `updateCards` run one change at a time per document (per guild,
 * per guild and app), so two interactions at once, or an interaction and the poller, never lose a write;
 * reads return copies the caller may change freely.
 */
export interface AppDocuments {
  /** The guild's document, or an empty one ({@link emptyAppGuild}) when it has none. */
  readGuild(guildId: string): Promise<AppGuild>;
  /** Applies `change` to (a copy of) the guild's document and stores the result; returns what was stored. */
  updateGuild(guildId: string, change: (guild: AppGuild) => AppGuild): Promise<AppGuild>;
  /** Every guild that has a document (one that cannot be read is left out): what the poller walks. */
  listGuilds(): Promise<AppGuild[]>;
  /** The release cards of one app in one guild, or an empty set. */
  readCards(guildId: string, appId: string): Promise<CardSet>;
  /** Applies `change` to (a copy of) the app's cards and stores the result; returns what was stored. */
  updateCards(guildId: string, appId: string, change: (cards: CardSet) => CardSet): Promise<CardSet>;
  /** Forgets one app's cards (after /app unwatch); the Discord messages stay where they are. */
  deleteCards(guildId: string, appId: string): Promise<void>;
  /** The submission fields last sent from this guild for the app, or undefined when none was sent from here. */
  readSentFields(guildId: string, appId: string): Promise<SentFields | undefined>;
  /** Keeps the fields of a submission the service took, replacing what was kept for the app before. */
  writeSentFields(guildId: string, appId: string, fields: SentFields): Promise<void>;
}

const Time = z.number().int();

/** One watched app: where its release cards go and whom an outcome pings. */
export const WatchSchema = z.object({
  appId: z.string(),
  /** The app's name when the watch was set or last polled, for replies and autocomplete. */
  appName: z.string(),
  channelId: z.string(),
  /** Pinged by the short message that announces an outcome; null: nobody. */
  roleId: z.string().nullable(),
  createdAt: Time,
  /** Who ran /app watch (a user id). */
  createdBy: z.string(),
  /**
   * The versions that existed at the first poll after the watch began: no card for them (no flood of history).
   * null until that poll.
   */
  baseline: z.array(z.string()).nullable(),
});
export type Watch = z.infer<typeof WatchSchema>;

/** Why the service refused the developer key: 401 (replaced or revoked) or 403 (access revoked). */
export const KeyRefusalSchema = z.object({
  status: z.union([z.literal(401), z.literal(403)]),
  at: Time,
  /** Whether the one admin message about it has been posted. */
  noticePosted: z.boolean(),
});
export type KeyRefusal = z.infer<typeof KeyRefusalSchema>;

/** The release poller's health for one guild, for /status and the alert. */
export const PollHealthSchema = z.object({
  /** When a poll last completed without a failure. */
  lastGoodAt: Time.nullable(),
  /** Failed polls in a row. */
  failures: z.number().int().nonnegative(),
  /** The last failure, in words an admin can act on (never holding a key). */
  lastProblem: z.string().nullable(),
  /** When the alert for the current run of failures was raised; null: none raised. */
  alertedAt: Time.nullable(),
});
export type PollHealth = z.infer<typeof PollHealthSchema>;

/** A guild's developer-API settings and state. */
export const AppGuildSchema = z.object({
  guildId: z.string(),
  /** The developer key (`upk_…`), sealed by the SecretBox when SECRET_KEY is set; null until /app key. */
  developerKey: z.string().nullable(),
  /** The account GET /me named when the key was set. */
  accountName: z.string().nullable(),
  keySetAt: Time.nullable(),
  /** Set when the service refused the key; polling stops until /app key sets a new one. */
  keyRefusal: KeyRefusalSchema.nullable(),
  /** Members with this role may submit and withdraw (besides Manage Server); null: admins only. */
  managersRoleId: z.string().nullable(),
  /** Watched apps by app id. */
  watches: z.record(z.string(), WatchSchema),
  /** When the recent submissions were sent (ms), for the count of 10 per hour. */
  submissions: z.array(Time),
  poll: PollHealthSchema,
});
export type AppGuild = z.infer<typeof AppGuildSchema>;

/** The release card of one version: the message, and what it showed last. */
export const CardSchema = z.object({
  label: z.string(),
  channelId: z.string(),
  /** null between deciding to post and Discord's answer; the nonce makes the retry land on the same message. */
  messageId: z.string().nullable(),
  nonce: z.string(),
  /** The review state shown, verbatim; null when the service named none. */
  state: z.string().nullable(),
  pending: z.boolean(),
  /** When the version entered that state (the service's time when it gives one, else when we first saw it). */
  stateSince: Time,
  /** When it was first seen waiting for review (for "after 2 h in review"); null: never seen waiting. */
  pendingSince: Time.nullable(),
  whatsNew: z.string().nullable(),
  /** Who withdrew it with /app withdraw (a user id). */
  withdrawnBy: z.string().nullable(),
  /** The outcome that has been announced (the state it left review for); null: none yet. */
  outcomeAnnounced: z.string().nullable(),
  /**
   * When the card's post (while `messageId` is null), and the outcome's message of a state, were written down
   * before their first try: a try later than Discord keeps nonces looks for the earlier try's post first. Absent
   * in cards written down before.
   */
  writtenAt: Time.optional(),
  outcomeWritten: z.object({ state: z.string(), at: Time }).optional(),
});
export type Card = z.infer<typeof CardSchema>;

/** The cards of one watched app, by version label. */
export const CardSetSchema = z.object({
  guildId: z.string(),
  appId: z.string(),
  versions: z.record(z.string(), CardSchema),
});
export type CardSet = z.infer<typeof CardSetSchema>;

/**
 * The fields of the last submission sent from a guild for one app, except those of one version only (version,
 * change note, files, repository ref, icon): what the next /app submit falls back on where the service's
 * version does not show a field (upstream-api.md §2.3). One document per app, replaced on each send.
 */
export const SentFieldsSchema = z.object({
  sentAt: Time,
  fields: z.record(z.string(), z.unknown()),
});
export type SentFields = z.infer<typeof SentFieldsSchema>;

/** The document of a guild nobody configured yet. */
export function emptyAppGuild(guildId: string): AppGuild {
  return {
    guildId,
    developerKey: null,
    accountName: null,
    keySetAt: null,
    keyRefusal: null,
    managersRoleId: null,
    watches: {},
    submissions: [],
    poll: { lastGoodAt: null, failures: 0, lastProblem: null, alertedAt: null },
  };
}

/** No cards yet. */
export function emptyCardSet(guildId: string, appId: string): CardSet {
  return { guildId, appId, versions: {} };
}
