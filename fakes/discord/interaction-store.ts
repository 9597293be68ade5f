/**
 * Interactions the fake has dispatched and everything the bot answered to them: the callback, edits of the
 * original response and follow-ups, with Discord's rules (one callback, within the deadline, edits need one).
 */
import {
  InteractionResponseType,
  MessageFlags,
  MessageType,
  type APIAttachment,
  type APIInteraction,
  type APIMessage,
  type APIUser,
} from 'discord.js';

import { ApiErrors } from './api-errors.js';
import type { FakeMessage, MessageBody, MessageStore } from './message-store.js';

/** What kind of answer a response was. */
export type InteractionResponseKind = 'callback' | 'edit' | 'followup' | 'delete';

/** One answer of the bot to an interaction, in the order received. */
export interface RecordedInteractionResponse {
  readonly interactionId: string;
  readonly kind: InteractionResponseKind;
  /** The callback type for `callback` (4 reply, 5 deferred, 6/7 component updates, 8 autocomplete, 9 modal). */
  readonly type: InteractionResponseType | undefined;
  /** The callback's `data`, or the body of an edit or follow-up. */
  readonly data: unknown;
  /** The message the answer created or edited (ephemeral ones included), if any. */
  readonly message: FakeMessage | undefined;
  readonly time: number;
}

interface InteractionRecord {
  readonly payload: APIInteraction;
  readonly dispatchedAt: number;
  acknowledged: boolean;
  originalMessageId: string | undefined;
  readonly responses: RecordedInteractionResponse[];
}

/** What `POST /interactions/{id}/{token}/callback?with_response=true` answers. */
export interface InteractionCallbackAnswer {
  readonly interaction: Record<string, unknown>;
  readonly resource: Record<string, unknown>;
}

const DEFERRED_TYPES = new Set<number>([
  InteractionResponseType.DeferredChannelMessageWithSource,
  InteractionResponseType.DeferredMessageUpdate,
]);

/** The interaction side of the fake's state. */
export class InteractionStore {
  readonly #byId = new Map<string, InteractionRecord>();
  readonly #byToken = new Map<string, InteractionRecord>();

  constructor(
    private readonly messages: MessageStore,
    private readonly bot: APIUser,
    private readonly applicationId: string,
    /** Discord forgets an interaction that is not answered within 3 s. */
    private readonly callbackDeadlineMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Remembers an interaction the fake is about to dispatch. */
  register(payload: APIInteraction): void {
    const record: InteractionRecord = {
      payload,
      dispatchedAt: this.now(),
      acknowledged: false,
      originalMessageId: undefined,
      responses: [],
    };
    this.#byId.set(payload.id, record);
    this.#byToken.set(payload.token, record);
  }

  /**
   * The most bytes one file may have in an answer to the interaction of this token (what its payload said,
   * `attachment_size_limit`); undefined for a token the fake does not know.
   */
  uploadLimit(token: string): number | undefined {
    const limit = (this.#byToken.get(token)?.payload as { attachment_size_limit?: number } | undefined)
      ?.attachment_size_limit;
    return limit;
  }

  /** The payload of a dispatched interaction. */
  payload(interactionId: string): APIInteraction | undefined {
    return this.#byId.get(interactionId)?.payload;
  }

  /** Every answer to an interaction so far, in order. */
  responses(interactionId: string): RecordedInteractionResponse[] {
    return [...(this.#byId.get(interactionId)?.responses ?? [])];
  }

  /**
   * Handles the initial callback. Returns what `with_response=true` answers; throws Discord's errors for an
   * unknown or expired interaction and for a second callback.
   */
  callback(
    interactionId: string,
    token: string,
    body: { type: InteractionResponseType; data?: unknown },
    attachments?: APIAttachment[],
  ): InteractionCallbackAnswer {
    const record = this.#byId.get(interactionId);
    if (!record || record.payload.token !== token) throw ApiErrors.unknownInteraction();
    if (record.acknowledged) throw ApiErrors.alreadyAcknowledged();
    if (this.now() - record.dispatchedAt > this.callbackDeadlineMs) throw ApiErrors.unknownInteraction();
    record.acknowledged = true;

    let message: FakeMessage | undefined;
    if (body.type === InteractionResponseType.ChannelMessageWithSource) {
      message = this.#createOriginal(
        record,
        (body.data ?? {}) as MessageBody & Record<string, unknown>,
        false,
        attachments,
      );
    } else if (body.type === InteractionResponseType.DeferredChannelMessageWithSource) {
      message = this.#createOriginal(
        record,
        (body.data ?? {}) as MessageBody & Record<string, unknown>,
        true,
        undefined,
      );
    } else if (
      body.type === InteractionResponseType.UpdateMessage ||
      body.type === InteractionResponseType.DeferredMessageUpdate
    ) {
      message = this.#updateComponentMessage(record, body.type, body.data ?? {});
    }
    record.responses.push({
      interactionId,
      kind: 'callback',
      type: body.type,
      data: body.data,
      message,
      time: this.now(),
    });

    return {
      interaction: {
        id: interactionId,
        type: record.payload.type,
        ...(message === undefined
          ? {}
          : {
              response_message_id: message.id,
              response_message_loading: DEFERRED_TYPES.has(body.type),
              response_message_ephemeral: message.ephemeral,
            }),
      },
      resource: { type: body.type, ...(message === undefined ? {} : { message: message.api }) },
    };
  }

  /** `PATCH /webhooks/{app}/{token}/messages/@original`: edits the reply (or fills in a deferred one). */
  editOriginal(applicationId: string, token: string, body: MessageBody, attachments?: APIAttachment[]): APIMessage {
    const record = this.#webhookRecord(applicationId, token);
    if (record.originalMessageId === undefined) throw ApiErrors.unknownMessage();
    const current = this.messages.get(record.originalMessageId);
    // Filling in a deferred reply clears Discord's "is thinking" flag.
    // An edit cannot change whether the reply is ephemeral.
    const ephemeral = (current?.flags ?? 0) & MessageFlags.Ephemeral;
    const flags = ((body.flags ?? current?.flags ?? 0) & ~MessageFlags.Loading) | ephemeral;
    const edited = this.messages.edit(record.originalMessageId, { ...body, flags }, attachments);
    if (!edited) throw ApiErrors.unknownMessage();
    record.responses.push({
      interactionId: record.payload.id,
      kind: 'edit',
      type: undefined,
      data: body,
      message: edited,
      time: this.now(),
    });
    return edited.api;
  }

  /** `GET /webhooks/{app}/{token}/messages/@original`. */
  getOriginal(applicationId: string, token: string): APIMessage {
    const record = this.#webhookRecord(applicationId, token);
    const message = record.originalMessageId === undefined ? undefined : this.messages.get(record.originalMessageId);
    if (!message) throw ApiErrors.unknownMessage();
    return message.api;
  }

  /** `DELETE /webhooks/{app}/{token}/messages/@original`. */
  deleteOriginal(applicationId: string, token: string): void {
    const record = this.#webhookRecord(applicationId, token);
    if (record.originalMessageId === undefined) throw ApiErrors.unknownMessage();
    record.responses.push({
      interactionId: record.payload.id,
      kind: 'delete',
      type: undefined,
      data: undefined,
      message: this.messages.get(record.originalMessageId),
      time: this.now(),
    });
    record.originalMessageId = undefined;
  }

  /** `POST /webhooks/{app}/{token}`: a follow-up message, allowed once the interaction is acknowledged. */
  followUp(
    applicationId: string,
    token: string,
    body: MessageBody & Record<string, unknown>,
    attachments?: APIAttachment[],
  ): APIMessage {
    const record = this.#webhookRecord(applicationId, token);
    if (!record.acknowledged) throw ApiErrors.unknownWebhook();
    const { message } = this.messages.create(body, {
      channelId: record.payload.channel?.id ?? '0',
      guildId: record.payload.guild_id,
      author: this.bot,
      source: 'interaction-followup',
      type: MessageType.Default,
      interactionId: record.payload.id,
      webhookId: this.applicationId,
      applicationId: this.applicationId,
      ...(attachments === undefined ? {} : { attachments }),
    });
    record.responses.push({
      interactionId: record.payload.id,
      kind: 'followup',
      type: undefined,
      data: body,
      message,
      time: this.now(),
    });
    return message.api;
  }

  /**
   * A component interaction's 6 (deferred update) or 7 (update): the message that holds the component becomes
   * the "original" that later edits change; 7 edits it at once. Ephemeral stays ephemeral.
   */
  #updateComponentMessage(
    record: InteractionRecord,
    type: InteractionResponseType,
    data: unknown,
  ): FakeMessage | undefined {
    const messageId = (record.payload as { message?: { id?: string } }).message?.id;
    const current = messageId === undefined ? undefined : this.messages.get(messageId);
    if (!current) throw ApiErrors.unknownMessage();
    record.originalMessageId = current.id;
    if (type === InteractionResponseType.DeferredMessageUpdate) return current;
    const body = data as MessageBody;
    const flags = (body.flags ?? current.flags) | (current.flags & MessageFlags.Ephemeral);
    return this.messages.edit(current.id, { ...body, flags });
  }

  #createOriginal(
    record: InteractionRecord,
    data: MessageBody & Record<string, unknown>,
    deferred: boolean,
    attachments: APIAttachment[] | undefined,
  ): FakeMessage {
    const flags = (data.flags ?? 0) | (deferred ? MessageFlags.Loading : 0);
    const { message } = this.messages.create(deferred ? { flags } : { ...data, flags }, {
      channelId: record.payload.channel?.id ?? '0',
      guildId: record.payload.guild_id,
      author: this.bot,
      source: 'interaction-reply',
      type: MessageType.ChatInputCommand,
      interactionId: record.payload.id,
      webhookId: this.applicationId,
      applicationId: this.applicationId,
      ...(attachments === undefined || deferred ? {} : { attachments }),
    });
    record.originalMessageId = message.id;
    return message;
  }

  #webhookRecord(applicationId: string, token: string): InteractionRecord {
    const record = this.#byToken.get(token);
    if (!record || applicationId !== this.applicationId) throw ApiErrors.unknownWebhook();
    return record;
  }
}
