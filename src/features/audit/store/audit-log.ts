/** How an admin action ended: it did its job, it was refused (with the reason shown), or it failed on our side. */
export type AuditResult = 'done' | 'refused' | 'failed';

/** The `userId` of what the bot did on its own (a retention sweep): no Discord user did it. */
export const BOT_USER_ID = 'bot';

/**
 * What an audit line records: an admin action (absent: what every line was before kinds), a lookup of someone in
 * the community record (`/case lookup`, `/staff stats`, `/staff history`, `/export`, `/record mine`), or a person forgotten.
 */
export type AuditKind = 'action' | 'lookup' | 'forget';

/** Every kind, in the order `/audit kind:` offers them. */
export const AUDIT_KINDS: readonly AuditKind[] = ['action', 'lookup', 'forget'];

/**
 * One admin action or lookup: who, what, when, how it ended. Never a key, a secret or anything typed into a
 * dialog; a lookup names whom it was about, never what it showed.
 */
export interface AuditEntry {
  guildId: string;
  userId: string;
  /** What was done, in words: `/feed set event:modcall channel:<#1>`, `Claim (modcall card)`. */
  action: string;
  result: AuditResult;
  /** The refusal shown to the admin, when refused. */
  detail: string | null;
  /** Milliseconds since the Unix epoch. */
  at: number;
  /** Absent: an admin action. */
  kind?: AuditKind;
  /**
   * Whom a lookup was about, as forgetting a person finds it: `player:<Roblox id>` or `member:<Discord id>`.
   * Absent: nobody in particular (an admin action, an export of everyone's rows).
   */
  subject?: string;
}

/** The admin actions of every server, stored (shared by every process), newest first on reading. */
export interface AuditLog {
  append(entry: AuditEntry): Promise<void>;
  /** The server's last `limit` entries (of `kind` only, when given), newest first (in the order they were stored). */
  latest(guildId: string, limit: number, kind?: AuditKind): Promise<AuditEntry[]>;
  /** Every server's entries, oldest first (in the order they were stored): what migrate-store copies. */
  listAll(): Promise<AuditEntry[]>;
  /** Forgets entries older than `before`; returns how many. */
  sweep(before: number): Promise<number>;
}
