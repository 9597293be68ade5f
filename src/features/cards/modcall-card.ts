import { z } from 'zod';

/*
 * A modcall card as the store keeps it, when the escalator must look at it next, and the server's paging settings
 * (the escalation, on-duty-first): what the escalator, the buttons and the feed read of a modcall.
 */

/** One call of a modcall card: the delivery that made it, and when the caller called. */
const CallSchema = z.object({ deliveryId: z.string(), at: z.number() });

/** A modcall's card: who called, how often, and who took it. */
export const ModcallCardSchema = z.object({
  guildId: z.string(),
  channelId: z.string(),
  messageId: z.string(),
  server: z.string(),
  caller: z.object({ robloxId: z.string(), name: z.string() }),
  /** The service's times of each call (the repeat-call window compares these with each other). */
  calls: z.array(CallSchema).min(1),
  /** When the card was posted, by this bot's clock (escalation and forgetting old cards count from it). */
  postedAt: z.number(),
  /**
   * The modcall's role, pinged by the card (or, a card that pinged the staff on shift first, by the escalator's reply
   * later): its members may claim and resolve, besides Manage Server.
   */
  pingRoleId: z.string().nullable(),
  claimedBy: z.string().nullable(),
  claimedAt: z.number().nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.number().nullable(),
  escalatedAt: z.number().nullable(),
  /**
   * When the card is escalated if still unclaimed, set by the escalator when it first sees the card (its server's
   * escalate-after then); null: never (no escalation then). Absent until the escalator has seen it.
   */
  escalateAt: z.number().nullable().optional(),
  /** The staff on shift the card pinged instead of its role (/feed mention on-duty-first); absent: none. */
  pingedOnDuty: z.array(z.string()).optional(),
  /**
   * When its role is pinged if still unclaimed (a card that pinged the staff on shift first), set by the escalator
   * when it first sees the card; null: never. Absent until then.
   */
  rolePingAt: z.number().nullable().optional(),
  /** When its role was pinged (or given up), after the staff on shift. */
  rolePingedAt: z.number().nullable().optional(),
  /**
   * When the reply that pings its role (after the staff on shift), and the one that escalates it, were first tried:
   * written down before the send, so a try later than Discord keeps nonces looks for the reply an earlier try
   * made, whose answer was lost. Absent until tried.
   */
  rolePingAskedAt: z.number().optional(),
  escalationAskedAt: z.number().optional(),
  /**
   * The escalator's looks at it that failed in a row (its server's settings unreadable, Discord failing), and
   * when it looks again: the card backs off meanwhile, so cards that keep failing do not fill every check's read.
   * Absent once a look went through.
   */
  failures: z.number().int().positive().optional(),
  retryAt: z.number().optional(),
});
export type ModcallCard = z.infer<typeof ModcallCardSchema>;

/** A modcall card is forgotten this long after it was resolved, or after it was posted when never resolved. */
export const MODCALL_KEPT_MS = 24 * 60 * 60 * 1000;

/** When the card is forgotten (its buttons then answer "no longer tracked"). */
export function forgetAtOf(card: ModcallCard): number {
  return (card.resolvedAt ?? card.postedAt) + MODCALL_KEPT_MS;
}

/** Nobody claimed or resolved it and it was not escalated: escalation may still concern it. */
export function isOpen(card: ModcallCard): boolean {
  return card.claimedBy === null && card.resolvedAt === null && card.escalatedAt === null;
}

/** The card pinged the staff on shift, and its role is still to be pinged when its time comes. */
export function awaitsRolePing(card: ModcallCard): boolean {
  return isOpen(card) && (card.pingedOnDuty?.length ?? 0) > 0 && (card.rolePingedAt ?? null) === null;
}

/**
 * When the escalator must look at the card next (its indexed time): at once while it has not seen it, at its
 * role's ping and its escalation while it is open, and when it is to be forgotten.
 */
export function dueOf(card: ModcallCard): number {
  const forgetAt = forgetAtOf(card);
  // Backing off after a failed look: not before its retry, but forgotten in time all the same.
  return Math.min(forgetAt, Math.max(nextStepOf(card, forgetAt), card.retryAt ?? 0));
}

function nextStepOf(card: ModcallCard, forgetAt: number): number {
  if (!isOpen(card)) return forgetAt;
  if (card.escalateAt === undefined) return card.postedAt;
  if (awaitsRolePing(card) && card.rolePingAt === undefined) return card.postedAt;
  const steps = [card.escalateAt, awaitsRolePing(card) ? card.rolePingAt : null];
  return Math.min(forgetAt, ...steps.filter((at): at is number => typeof at === 'number'));
}

/**
 * A server's modcalls ping the staff on shift first (at most 10, as users), and the event's role only after
 * `roleAfterMinutes` unclaimed (/feed mention event:modcall on-duty-first:true role-after:).
 */
export const OnDutyFirstSchema = z.object({ roleAfterMinutes: z.number().int().positive() });
export type OnDutyFirst = z.infer<typeof OnDutyFirstSchema>;

/** Escalation of unclaimed modcalls in one server (/feed mention event:modcall escalate-after: escalate-role:). */
export const EscalationSchema = z.object({ afterMinutes: z.number().int().positive(), roleId: z.string() });
export type Escalation = z.infer<typeof EscalationSchema>;
