import type { APIEmbed } from 'discord.js';
import { z } from 'zod';

import type { RecordStore } from '../../store/records.js';
import { sweepInSlices } from '../../store/sweep-in-slices.js';

/**
 * Where a case, session or shift was posted: its message and the embeds it has there. A later event of the same
 * subject (case.voided, session.ended, shift.ended) edits those embeds in place.
 */
export const SubjectCardSchema = z.object({
  channelId: z.string(),
  messageId: z.string(),
  embedIndex: z.number().int().nonnegative(),
  embedCount: z.number().int().positive(),
  postedAt: z.number(),
  /**
   * A session's start as it came (the service documents only id, name and end for session.ended): the summary
   * then shows who started it, when, and how long it ran.
   */
  sessionStart: z.record(z.string(), z.unknown()).optional(),
});
export type SubjectCard = z.infer<typeof SubjectCardSchema>;

/**
 * The event that ended a subject (case.voided, session.ended, shift.ended), kept once it was posted on its own (no
 * card of its subject existed then): a card posted later, in any lane or process, is drawn in this final state.
 */
const FinalStateSchema = z.object({ deliveryId: z.string(), event: z.string(), rawBody: z.string(), at: z.number() });
export type FinalState = z.infer<typeof FinalStateSchema>;

/** A posted message's embeds as they stand (an edit must send them all: Discord replaces the whole list). */
const MessageEmbedsSchema = z.object({ embeds: z.array(z.looseObject({})), postedAt: z.number().optional() });

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
  /** The role the modcall pinged: its members may claim and resolve, besides Manage Server. */
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

const SUBJECT = 'card';
const MESSAGE = 'card_message';
const FINAL = 'card_final';
const MODCALL = 'modcall_card';
const CALLER = 'modcall_caller';
const ESCALATION = 'modcall_escalation';
const ON_DUTY_FIRST = 'modcall_on_duty_first';

/**
 * The living feed's records, as store documents: each change atomic, shared by every process. Each carries a time
 * in the store: followed cards, their messages and final states, and callers are swept by it (see {@link sweep});
 * a modcall card's is when the escalator must look at it next ({@link dueOf}).
 */
export class CardRecords {
  constructor(private readonly records: RecordStore) {}

  async subject(guildId: string, subjectKey: string): Promise<SubjectCard | undefined> {
    const stored = await this.records.get(SUBJECT, `${guildId}:${subjectKey}`);
    return stored === undefined || stored === null ? undefined : SubjectCardSchema.parse(stored);
  }

  /** Stores where the subject's card is; null forgets it (its later events are then posted on their own). */
  async saveSubject(guildId: string, subjectKey: string, card: SubjectCard | null): Promise<void> {
    if (card === null) await this.records.delete(SUBJECT, `${guildId}:${subjectKey}`);
    else await this.records.update(SUBJECT, `${guildId}:${subjectKey}`, () => card, timeOf(card.postedAt));
  }

  async finalState(guildId: string, subjectKey: string): Promise<FinalState | undefined> {
    const stored = await this.records.get(FINAL, `${guildId}:${subjectKey}`);
    const parsed = FinalStateSchema.safeParse(stored);
    return parsed.success ? parsed.data : undefined;
  }

  async saveFinalState(guildId: string, subjectKey: string, final: FinalState): Promise<void> {
    await this.records.update(FINAL, `${guildId}:${subjectKey}`, () => final, timeOf(final.at));
  }

  async messageEmbeds(channelId: string, messageId: string): Promise<APIEmbed[] | undefined> {
    const stored = await this.records.get(MESSAGE, `${channelId}:${messageId}`);
    return stored === undefined || stored === null ? undefined : MessageEmbedsSchema.parse(stored).embeds;
  }

  async saveMessageEmbeds(
    channelId: string,
    messageId: string,
    embeds: readonly APIEmbed[],
    postedAt: number,
  ): Promise<void> {
    await this.records.update(MESSAGE, `${channelId}:${messageId}`, () => ({ embeds, postedAt }), timeOf(postedAt));
  }

  /**
   * Forgets cards posted before `before`: their later events are then posted on their own ("too old" to
   * follow); their messages, the final states and the callers' latest calls of that age go with them. Deletes a
   * bounded slice at a time by the indexed time (the hourly sweep); returns how many cards were forgotten.
   */
  async sweep(before: number): Promise<number> {
    const forgotten = await sweepInSlices((limit) => this.records.sweepBefore(SUBJECT, before, limit));
    for (const kind of [FINAL, MESSAGE, CALLER]) {
      await sweepInSlices((limit) => this.records.sweepBefore(kind, before, limit));
    }
    return forgotten;
  }

  async modcall(guildId: string, messageId: string): Promise<ModcallCard | undefined> {
    const stored = await this.records.get(MODCALL, `${guildId}:${messageId}`);
    return stored === undefined || stored === null ? undefined : ModcallCardSchema.parse(stored);
  }

  /**
   * Changes a modcall card atomically; `change` may return the card unchanged, or undefined to forget it (its
   * document is deleted). The card's due time follows from what is stored ({@link dueOf}).
   */
  async updateModcall(
    guildId: string,
    messageId: string,
    change: (card: ModcallCard | undefined) => ModcallCard | undefined,
  ): Promise<ModcallCard | undefined> {
    const stored = await this.records.update(
      MODCALL,
      `${guildId}:${messageId}`,
      (current) => change(current === undefined || current === null ? undefined : ModcallCardSchema.parse(current)),
      (next) => dueOf(ModcallCardSchema.parse(next)),
    );
    return stored === undefined ? undefined : ModcallCardSchema.parse(stored);
  }

  /**
   * Up to `limit` modcall cards due by `until` ({@link dueOf}), earliest first: only those are read. A document
   * that is not a card (written by hand, or damaged) is dropped and its key returned in `unreadable`: left in
   * place it would stay due and be read first at every check, and its escalation could never run anyway.
   */
  async dueModcalls(until: number, limit: number): Promise<{ cards: ModcallCard[]; unreadable: string[] }> {
    const cards: ModcallCard[] = [];
    const unreadable: string[] = [];
    for (const { key, value } of await this.records.listDue(MODCALL, until, limit)) {
      const card = ModcallCardSchema.safeParse(value);
      if (card.success) {
        cards.push(card.data);
        continue;
      }
      // A tombstone a process of an earlier version wrote over a card kept the card's time: it goes now.
      if (value !== null) unreadable.push(key);
      await this.records.delete(MODCALL, key);
    }
    return { cards, unreadable };
  }

  /** The message id of the caller's latest modcall card in this server. */
  async latestCallOf(guildId: string, server: string, robloxId: string): Promise<string | undefined> {
    const stored = await this.records.get(CALLER, `${guildId}:${server}:${robloxId}`);
    return typeof stored === 'string' ? stored : undefined;
  }

  /** Remembers the caller's latest card, swept with the cards by `postedAt` (the card's). */
  async saveLatestCall(
    guildId: string,
    server: string,
    robloxId: string,
    messageId: string,
    postedAt: number,
  ): Promise<void> {
    await this.records.update(CALLER, `${guildId}:${server}:${robloxId}`, () => messageId, timeOf(postedAt));
  }

  async escalation(guildId: string): Promise<Escalation | undefined> {
    const stored = await this.records.get(ESCALATION, guildId);
    return stored === undefined || stored === null ? undefined : EscalationSchema.parse(stored);
  }

  /** Stores the server's escalation; null turns it off (its document is deleted). */
  async saveEscalation(guildId: string, escalation: Escalation | null): Promise<void> {
    if (escalation === null) await this.records.delete(ESCALATION, guildId);
    else await this.records.update(ESCALATION, guildId, () => escalation);
  }

  async onDutyFirst(guildId: string): Promise<OnDutyFirst | undefined> {
    const stored = await this.records.get(ON_DUTY_FIRST, guildId);
    return stored === undefined || stored === null ? undefined : OnDutyFirstSchema.parse(stored);
  }

  /** Stores whether the server's modcalls ping the staff on shift first; null turns it off. */
  async saveOnDutyFirst(guildId: string, onDutyFirst: OnDutyFirst | null): Promise<void> {
    if (onDutyFirst === null) await this.records.delete(ON_DUTY_FIRST, guildId);
    else await this.records.update(ON_DUTY_FIRST, guildId, () => onDutyFirst);
  }
}

/** A document's fixed time, whatever its value. */
function timeOf(at: number): () => number {
  return () => at;
}
