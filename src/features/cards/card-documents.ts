import type { APIEmbed } from 'discord.js';
import { z } from 'zod';

import type { DocumentStore } from '../../store/documents.js';
import { sweepInSlices } from '../../store/sweep-in-slices.js';
import {
  dueOf,
  EscalationSchema,
  ModcallCardSchema,
  OnDutyFirstSchema,
  type Escalation,
  type ModcallCard,
  type OnDutyFirst,
} from './modcall-card.js';

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
export class CardDocuments {
  constructor(private readonly documents: DocumentStore) {}

  async subject(guildId: string, subjectKey: string): Promise<SubjectCard | undefined> {
    const stored = await this.documents.get(SUBJECT, `${guildId}:${subjectKey}`);
    return stored === undefined || stored === null ? undefined : SubjectCardSchema.parse(stored);
  }

  /** Stores where the subject's card is; null forgets it (its later events are then posted on their own). */
  async saveSubject(guildId: string, subjectKey: string, card: SubjectCard | null): Promise<void> {
    if (card === null) await this.documents.delete(SUBJECT, `${guildId}:${subjectKey}`);
    else await this.saveSubjects(guildId, [{ subjectKey, card }]);
  }

  /** Stores where each subject's card is (a message's cards, in one write). */
  async saveSubjects(guildId: string, cards: ReadonlyArray<{ subjectKey: string; card: SubjectCard }>): Promise<void> {
    const documents = cards.map(({ subjectKey, card }) => ({
      key: `${guildId}:${subjectKey}`,
      value: card,
      at: card.postedAt,
    }));
    await this.documents.put(SUBJECT, documents);
  }

  async finalState(guildId: string, subjectKey: string): Promise<FinalState | undefined> {
    return (await this.finalStates(guildId, [subjectKey])).get(subjectKey);
  }

  /** The final states kept of these subjects (by subject key), in one read. */
  async finalStates(guildId: string, subjectKeys: readonly string[]): Promise<Map<string, FinalState>> {
    const stored = await this.documents.getAll(
      FINAL,
      subjectKeys.map((subjectKey) => `${guildId}:${subjectKey}`),
    );
    const found = new Map<string, FinalState>();
    for (const subjectKey of subjectKeys) {
      const parsed = FinalStateSchema.safeParse(stored.get(`${guildId}:${subjectKey}`));
      if (parsed.success) found.set(subjectKey, parsed.data);
    }
    return found;
  }

  async saveFinalState(guildId: string, subjectKey: string, final: FinalState): Promise<void> {
    await this.saveFinalStates(guildId, [{ subjectKey, final }]);
  }

  /** Keeps each subject's final state (a message's final events, in one write). */
  async saveFinalStates(
    guildId: string,
    finals: ReadonlyArray<{ subjectKey: string; final: FinalState }>,
  ): Promise<void> {
    const documents = finals.map(({ subjectKey, final }) => ({
      key: `${guildId}:${subjectKey}`,
      value: final,
      at: final.at,
    }));
    await this.documents.put(FINAL, documents);
  }

  async messageEmbeds(channelId: string, messageId: string): Promise<APIEmbed[] | undefined> {
    const stored = await this.documents.get(MESSAGE, `${channelId}:${messageId}`);
    return stored === undefined || stored === null ? undefined : MessageEmbedsSchema.parse(stored).embeds;
  }

  async saveMessageEmbeds(
    channelId: string,
    messageId: string,
    embeds: readonly APIEmbed[],
    postedAt: number,
  ): Promise<void> {
    await this.documents.put(MESSAGE, [
      { key: `${channelId}:${messageId}`, value: { embeds, postedAt }, at: postedAt },
    ]);
  }

  /**
   * Forgets cards posted before `before`: their later events are then posted on their own ("too old" to
   * follow); their messages, the final states and the callers' latest calls of that age go with them. Deletes a
   * bounded slice at a time by the indexed time (the hourly sweep); returns how many cards were forgotten. Each
   * kind is swept whether or not another failed; then the sweep fails with what failed (the next hour tries it).
   */
  async sweep(before: number): Promise<number> {
    let forgotten = 0;
    const failed: unknown[] = [];
    for (const kind of [SUBJECT, FINAL, MESSAGE, CALLER]) {
      try {
        const swept = await sweepInSlices((limit) => this.documents.sweepBefore(kind, before, limit));
        if (kind === SUBJECT) forgotten = swept;
      } catch (error) {
        failed.push(error);
      }
    }
    if (failed.length > 0) throw new AggregateError(failed, `${failed.length} of the cards' kinds could not be swept`);
    return forgotten;
  }

  async modcall(guildId: string, messageId: string): Promise<ModcallCard | undefined> {
    const stored = await this.documents.get(MODCALL, `${guildId}:${messageId}`);
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
    const stored = await this.documents.update(
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
    for (const { key, value } of await this.documents.listDue(MODCALL, until, limit)) {
      const card = ModcallCardSchema.safeParse(value);
      if (card.success) {
        cards.push(card.data);
        continue;
      }
      // A tombstone a process of an earlier version wrote over a card kept the card's time: it goes now.
      if (value !== null) unreadable.push(key);
      await this.documents.delete(MODCALL, key);
    }
    return { cards, unreadable };
  }

  /** The message id of the caller's latest modcall card in this server. */
  async latestCallOf(guildId: string, server: string, robloxId: string): Promise<string | undefined> {
    const stored = await this.documents.get(CALLER, `${guildId}:${server}:${robloxId}`);
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
    await this.documents.put(CALLER, [{ key: `${guildId}:${server}:${robloxId}`, value: messageId, at: postedAt }]);
  }

  async escalation(guildId: string): Promise<Escalation | undefined> {
    const stored = await this.documents.get(ESCALATION, guildId);
    return stored === undefined || stored === null ? undefined : EscalationSchema.parse(stored);
  }

  /** Stores the server's escalation; null turns it off (its document is deleted). */
  async saveEscalation(guildId: string, escalation: Escalation | null): Promise<void> {
    if (escalation === null) await this.documents.delete(ESCALATION, guildId);
    else await this.documents.put(ESCALATION, [{ key: guildId, value: escalation }]);
  }

  async onDutyFirst(guildId: string): Promise<OnDutyFirst | undefined> {
    const stored = await this.documents.get(ON_DUTY_FIRST, guildId);
    return stored === undefined || stored === null ? undefined : OnDutyFirstSchema.parse(stored);
  }

  /** Stores whether the server's modcalls ping the staff on shift first; null turns it off. */
  async saveOnDutyFirst(guildId: string, onDutyFirst: OnDutyFirst | null): Promise<void> {
    if (onDutyFirst === null) await this.documents.delete(ON_DUTY_FIRST, guildId);
    else await this.documents.put(ON_DUTY_FIRST, [{ key: guildId, value: onDutyFirst }]);
  }
}
