/**
 * Messages the fake has accepted, per channel and in order, with Discord's nonce de-duplication.
 */
import {
  MessageFlags,
  MessageType,
  type APIAttachment,
  type APIEmbed,
  type APIMessage,
  type APIUser,
} from 'discord.js';

import { makeMessage } from './api-objects.js';

/** Where a stored message came from. */
export type MessageSource = 'channel' | 'interaction-reply' | 'interaction-followup';

/** A message as stored by the fake: what the bot asked for, next to what the fake answered. */
export interface FakeMessage {
  readonly id: string;
  readonly channel_id: string;
  readonly guild_id: string | undefined;
  readonly content: string;
  readonly embeds: readonly APIEmbed[];
  readonly components: readonly unknown[];
  /** As sent by the bot; undefined when it sent none (Discord's default then pings whatever the text says). */
  readonly allowed_mentions: unknown;
  readonly nonce: string | number | undefined;
  readonly flags: number;
  readonly ephemeral: boolean;
  readonly source: MessageSource;
  readonly interaction_id: string | undefined;
  /** Embeds Discord dropped because the bot lacked Embed Links in the channel. */
  readonly embeds_dropped: boolean;
  /** The message object the fake answered with (updated by edits). */
  readonly api: APIMessage;
  /** The request body that created the message. */
  readonly body: Readonly<Record<string, unknown>>;
}

/** A message body after validation: the fields the store reads. */
export interface MessageBody {
  readonly content?: string | null;
  readonly embeds?: readonly APIEmbed[] | null;
  readonly components?: readonly unknown[] | null;
  readonly allowed_mentions?: unknown;
  readonly nonce?: string | number | null;
  readonly enforce_nonce?: boolean | null;
  readonly flags?: number | null;
  readonly tts?: boolean | null;
}

/** Everything {@link MessageStore.create} needs besides the body. */
export interface CreateContext {
  readonly channelId: string;
  readonly guildId: string | undefined;
  readonly author: APIUser;
  readonly source: MessageSource;
  readonly type?: MessageType;
  readonly interactionId?: string;
  readonly webhookId?: string;
  readonly applicationId?: string;
  /** Discord silently drops embeds when the author may not embed links in the channel. */
  readonly dropEmbeds?: boolean;
  /** The files uploaded with the message, as the fake stored them (attachment-store.ts). */
  readonly attachments?: APIAttachment[];
}

/** The fake's message history. */
export class MessageStore {
  readonly #byChannel = new Map<string, FakeMessage[]>();
  readonly #byId = new Map<string, FakeMessage>();
  readonly #nonces = new Map<string, { message: FakeMessage; at: number }>();
  #nonceDuplicates = 0;

  constructor(
    private readonly nextId: () => string,
    private readonly nonceWindowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores a new message, unless `enforce_nonce` is set and the same author already sent this nonce in this
   * channel within the nonce window: then Discord returns that first message and creates nothing.
   */
  create(
    body: MessageBody & Record<string, unknown>,
    context: CreateContext,
  ): { message: FakeMessage; duplicate: boolean } {
    const nonce = body.nonce ?? undefined;
    const nonceKey = nonce === undefined ? undefined : `${context.channelId}:${context.author.id}:${String(nonce)}`;
    if (nonceKey !== undefined && body.enforce_nonce === true) {
      const seen = this.#nonces.get(nonceKey);
      if (seen && this.now() - seen.at < this.nonceWindowMs) {
        this.#nonceDuplicates += 1;
        return { message: seen.message, duplicate: true };
      }
    }

    const id = this.nextId();
    const flags = body.flags ?? 0;
    const embeds = context.dropEmbeds === true ? [] : [...(body.embeds ?? [])];
    const components = [...(body.components ?? [])];
    const reference = replyReference(body['message_reference'], context);
    const api = makeMessage({
      id,
      channelId: context.channelId,
      author: context.author,
      content: body.content ?? '',
      embeds,
      components,
      flags,
      tts: body.tts ?? false,
      ...(nonce === undefined ? {} : { nonce }),
      ...(context.type === undefined ? (reference ? { type: MessageType.Reply } : {}) : { type: context.type }),
      ...(reference ? { messageReference: reference } : {}),
      ...(context.webhookId === undefined ? {} : { webhookId: context.webhookId }),
      ...(context.applicationId === undefined ? {} : { applicationId: context.applicationId }),
      ...(context.attachments === undefined ? {} : { attachments: context.attachments }),
    });
    const message: FakeMessage = {
      id,
      channel_id: context.channelId,
      guild_id: context.guildId,
      content: api.content,
      embeds: api.embeds,
      components,
      allowed_mentions: body.allowed_mentions,
      nonce,
      flags,
      ephemeral: (flags & MessageFlags.Ephemeral) !== 0,
      source: context.source,
      interaction_id: context.interactionId,
      embeds_dropped: context.dropEmbeds === true && (body.embeds?.length ?? 0) > 0,
      api,
      body,
    };
    this.#byId.set(id, message);
    const list = this.#byChannel.get(context.channelId) ?? [];
    list.push(message);
    this.#byChannel.set(context.channelId, list);
    // Discord remembers every nonce, enforced or not, so a later enforced retry finds the first send.
    if (nonceKey !== undefined && !this.#nonces.has(nonceKey)) this.#nonces.set(nonceKey, { message, at: this.now() });
    return { message, duplicate: false };
  }

  /**
   * Applies an edit (PATCH of a webhook message) and returns the updated message; `attachments`, when given, are
   * the message's files from now on (those it keeps and those uploaded with the edit).
   */
  edit(messageId: string, body: MessageBody, attachments?: APIAttachment[]): FakeMessage | undefined {
    const current = this.#byId.get(messageId);
    if (!current) return undefined;
    const content = body.content === undefined ? current.content : (body.content ?? '');
    const embeds = body.embeds === undefined ? current.embeds : [...(body.embeds ?? [])];
    const components = body.components === undefined ? current.components : [...(body.components ?? [])];
    const flags = body.flags ?? current.flags;
    const api: APIMessage = {
      ...current.api,
      content,
      embeds: embeds.map((embed) => ({ type: 'rich', ...embed }) as APIEmbed),
      components: components as NonNullable<APIMessage['components']>,
      flags: flags,
      attachments: attachments ?? current.api.attachments,
      edited_timestamp: new Date(this.now()).toISOString(),
    };
    const updated: FakeMessage = {
      ...current,
      content,
      embeds: api.embeds,
      components,
      flags,
      allowed_mentions: body.allowed_mentions ?? current.allowed_mentions,
      api,
    };
    this.#byId.set(messageId, updated);
    const list = this.#byChannel.get(current.channel_id) ?? [];
    const index = list.findIndex((m) => m.id === messageId);
    if (index >= 0) list[index] = updated;
    return updated;
  }

  /** Removes a message, as deleting it in Discord does. */
  delete(messageId: string): void {
    const current = this.#byId.get(messageId);
    if (!current) return;
    this.#byId.delete(messageId);
    const list = this.#byChannel.get(current.channel_id) ?? [];
    this.#byChannel.set(
      current.channel_id,
      list.filter((message) => message.id !== messageId),
    );
  }

  /** A message by id, ephemeral ones included. */
  get(messageId: string): FakeMessage | undefined {
    return this.#byId.get(messageId);
  }

  /** What anyone in the channel sees, oldest first: ephemeral interaction replies are left out. */
  inChannel(channelId: string): FakeMessage[] {
    return (this.#byChannel.get(channelId) ?? []).filter((m) => !m.ephemeral);
  }

  /** Every visible message in every channel, in creation order. */
  all(): FakeMessage[] {
    return [...this.#byId.values()].filter((m) => !m.ephemeral).sort((a, b) => compareIds(a.id, b.id));
  }

  /** How many creates were answered with an earlier message because of `enforce_nonce`. */
  get nonceDuplicates(): number {
    return this.#nonceDuplicates;
  }
}

/** What Discord echoes of a reply's `message_reference`: the message it answers (in this channel by default). */
function replyReference(
  reference: unknown,
  context: CreateContext,
): { message_id: string; channel_id: string; guild_id?: string } | undefined {
  if (typeof reference !== 'object' || reference === null) return undefined;
  const { message_id: messageId, channel_id: channelId } = reference as { message_id?: unknown; channel_id?: unknown };
  if (typeof messageId !== 'string') return undefined;
  return {
    message_id: messageId,
    channel_id: typeof channelId === 'string' ? channelId : context.channelId,
    ...(context.guildId === undefined ? {} : { guild_id: context.guildId }),
  };
}

function compareIds(a: string, b: string): number {
  const diff = BigInt(a) - BigInt(b);
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}
