import type { APIEmbed } from 'discord.js';
import { z } from 'zod';

import type { RecordStore } from '../store/records.js';

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
});
export type ModcallCard = z.infer<typeof ModcallCardSchema>;

/** Escalation of unclaimed modcalls in one server (/feed mention event:modcall escalate-after: escalate-role:). */
export const EscalationSchema = z.object({ afterMinutes: z.number().int().positive(), roleId: z.string() });
export type Escalation = z.infer<typeof EscalationSchema>;

const SUBJECT = 'card';
const MESSAGE = 'card_message';
const FINAL = 'card_final';
const MODCALL = 'modcall_card';
const CALLER = 'modcall_caller';
const ESCALATION = 'modcall_escalation';

/** The living feed's records, as store documents: each change atomic, shared by every process. */
export class CardRecords {
  constructor(private readonly records: RecordStore) {}

  async subject(guildId: string, subjectKey: string): Promise<SubjectCard | undefined> {
    const stored = await this.records.get(SUBJECT, `${guildId}:${subjectKey}`);
    return stored === undefined || stored === null ? undefined : SubjectCardSchema.parse(stored);
  }

  /** Stores where the subject's card is; null forgets it (its later events are then posted on their own). */
  async saveSubject(guildId: string, subjectKey: string, card: SubjectCard | null): Promise<void> {
    if (card === null) await this.records.delete(SUBJECT, `${guildId}:${subjectKey}`);
    else await this.records.update(SUBJECT, `${guildId}:${subjectKey}`, () => card);
  }

  async finalState(guildId: string, subjectKey: string): Promise<FinalState | undefined> {
    const stored = await this.records.get(FINAL, `${guildId}:${subjectKey}`);
    const parsed = FinalStateSchema.safeParse(stored);
    return parsed.success ? parsed.data : undefined;
  }

  async saveFinalState(guildId: string, subjectKey: string, final: FinalState): Promise<void> {
    await this.records.update(FINAL, `${guildId}:${subjectKey}`, () => final);
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
    await this.records.update(MESSAGE, `${channelId}:${messageId}`, () => ({ embeds, postedAt }));
  }

  /**
   * Forgets cards posted before `before`: their later events are then posted on their own ("too old" to
   * follow). One pass over the cards (the hourly sweep); returns how many were forgotten.
   */
  async sweep(before: number): Promise<number> {
    let forgotten = 0;
    for (const { key, value } of await this.records.list(SUBJECT)) {
      const card = SubjectCardSchema.safeParse(value);
      if (value === null || (card.success && card.data.postedAt < before)) {
        await this.records.delete(SUBJECT, key);
        forgotten += 1;
      }
    }
    for (const { key, value } of await this.records.list(FINAL)) {
      const final = FinalStateSchema.safeParse(value);
      if (!final.success || final.data.at < before) await this.records.delete(FINAL, key);
    }
    for (const { key, value } of await this.records.list(MESSAGE)) {
      const message = MessageEmbedsSchema.safeParse(value);
      if (value === null || (message.success && (message.data.postedAt ?? 0) < before)) {
        await this.records.delete(MESSAGE, key);
      }
    }
    return forgotten;
  }

  async modcall(guildId: string, messageId: string): Promise<ModcallCard | undefined> {
    const stored = await this.records.get(MODCALL, `${guildId}:${messageId}`);
    return stored === undefined || stored === null ? undefined : ModcallCardSchema.parse(stored);
  }

  /** Changes a modcall card atomically; `change` may return the card unchanged. */
  async updateModcall(
    guildId: string,
    messageId: string,
    change: (card: ModcallCard | undefined) => ModcallCard | undefined,
  ): Promise<ModcallCard | undefined> {
    const stored = await this.records.update(MODCALL, `${guildId}:${messageId}`, (current) => {
      const next = change(current === undefined || current === null ? undefined : ModcallCardSchema.parse(current));
      return next ?? null;
    });
    return stored === null ? undefined : ModcallCardSchema.parse(stored);
  }

  async listModcalls(): Promise<ModcallCard[]> {
    return (await this.records.list(MODCALL)).flatMap(({ value }) =>
      value === null ? [] : [ModcallCardSchema.parse(value)],
    );
  }

  /** The message id of the caller's latest modcall card in this server. */
  async latestCallOf(guildId: string, server: string, robloxId: string): Promise<string | undefined> {
    const stored = await this.records.get(CALLER, `${guildId}:${server}:${robloxId}`);
    return typeof stored === 'string' ? stored : undefined;
  }

  async saveLatestCall(guildId: string, server: string, robloxId: string, messageId: string): Promise<void> {
    await this.records.update(CALLER, `${guildId}:${server}:${robloxId}`, () => messageId);
  }

  async escalation(guildId: string): Promise<Escalation | undefined> {
    const stored = await this.records.get(ESCALATION, guildId);
    return stored === undefined || stored === null ? undefined : EscalationSchema.parse(stored);
  }

  async saveEscalation(guildId: string, escalation: Escalation | null): Promise<void> {
    await this.records.update(ESCALATION, guildId, () => escalation);
  }
}
