import { Routes, type APIAllowedMentions, type APIEmbed, type Client } from 'discord.js';

import type { Logger } from '../../base/logger.js';
import { requestDiscord } from './classify-discord-error.js';
import { pingedMentions } from './pinged-mentions.js';
import { SendError, type SendFailure } from './send-failure.js';

/** Discord's "Unknown Message": the message was deleted in Discord. */
const UNKNOWN_MESSAGE = 10008;
/** How Discord refuses a reply in a channel where the bot lacks Read Message History (160002, or 50013). */
const REPLY_REFUSED_CODES = new Set<number | undefined>([160002, 50013]);
/** Mentions in a body that names none: it pings nobody, whatever its text says. */
const PING_NOBODY: APIAllowedMentions = { parse: [] };

/** A new message, in Discord's own field names. */
export interface OutgoingMessage {
  content?: string;
  embeds: APIEmbed[];
  /** Who may be pinged; without it, nobody. */
  allowed_mentions?: APIAllowedMentions;
  /** Buttons (a modcall's Claim and Resolve). */
  components?: unknown[];
  /** Makes the message a reply. */
  message_reference?: { message_id: string; channel_id: string; fail_if_not_exists?: boolean };
  /** Files uploaded with it (an embed shows one as `attachment://<name>`); needs Attach Files. */
  files?: readonly OutgoingFile[];
}

/** A file a message carries: its name, its bytes, and what it shows for screen readers. */
export interface OutgoingFile {
  name: string;
  data: Buffer;
  description: string;
}

/** What an edit replaces in a message. */
export interface MessageEdit {
  content?: string;
  embeds: APIEmbed[];
  allowed_mentions?: APIAllowedMentions;
  components?: unknown[];
}

/**
 * The one way the bot posts and edits messages in a channel (the feed, the cards, the alerts, the release cards).
 * A failure rejects with a `SendError` whose failure says what it means (see classify-discord-error.ts).
 */
export interface Poster {
  /** Posts a message; `nonce` makes a retry after a lost answer land on the same message. Returns its id. */
  post(channelId: string, body: OutgoingMessage, nonce: string): Promise<string>;
  /**
   * Edits a message in place; `gone` when it was deleted meanwhile (the caller then posts a new one). The body's
   * allowed_mentions, if any, are sent as they are and none is added: an edit pings nobody, and mentions sent
   * with one would change which mentions the message already shows.
   */
  edit(channelId: string, messageId: string, body: MessageEdit): Promise<'edited' | 'gone'>;
}

export interface PosterOptions {
  /** The bot's token, put back after a 401 (see `requestDiscord`). */
  token?: string;
  /** Where a refused reply is noted. */
  logger?: Logger;
}

/**
 * The poster on discord.js's REST layer, which queues per route and waits out 429s by itself.
 *
 * Every post carries its nonce with enforce_nonce, and allowed_mentions: the body's own (what the route means to
 * ping) narrowed to the mentions its content names, or nobody, so user text in a message can never ping anyone and
 * a message allows exactly whom it pings (pinged-mentions.ts). A reply (a body with `message_reference`)
 * that Discord refuses for want of Read Message History is logged and posted without its reference: the message
 * matters more than the thread, and a refused reply must not stop the channel.
 */
export function createPoster(client: Client, options: PosterOptions = {}): Poster {
  const send = (channelId: string, { files = [], ...body }: OutgoingMessage, nonce: string) =>
    requestDiscord(
      client,
      options.token,
      async () => {
        const attachments = files.map((file, i) => ({
          id: String(i),
          filename: file.name,
          description: file.description,
        }));
        const posted = (await client.rest.post(Routes.channelMessages(channelId), {
          body: {
            ...body,
            ...(files.length > 0 ? { attachments } : {}),
            allowed_mentions: pingedMentions(body.content, body.allowed_mentions ?? PING_NOBODY),
            nonce,
            enforce_nonce: true,
          },
          ...(files.length > 0 ? { files: files.map((file) => ({ name: file.name, data: file.data })) } : {}),
        })) as { id: string };
        return posted.id;
      },
      channelId,
    );
  return {
    async post(channelId, body, nonce) {
      try {
        return await send(channelId, body, nonce);
      } catch (error) {
        const failure = failureOf(error);
        if (body.message_reference === undefined || !failure || !isReplyRefused(failure)) throw error;
        options.logger?.warn(
          { channelId, reason: failure.reason },
          'reply refused (the bot lacks Read Message History there): posted without its reference',
        );
        const standalone = { ...body };
        delete standalone.message_reference;
        // Discord kept nothing of the refused request, so the same nonce still guards against a duplicate.
        return send(channelId, standalone, nonce);
      }
    },
    async edit(channelId, messageId, body) {
      // Without new content the message keeps its own, which these mentions were meant for.
      const sent =
        body.allowed_mentions === undefined || body.content === undefined
          ? body
          : { ...body, allowed_mentions: pingedMentions(body.content, body.allowed_mentions) };
      try {
        await requestDiscord(
          client,
          options.token,
          () => client.rest.patch(Routes.channelMessage(channelId, messageId), { body: sent }),
          channelId,
        );
        return 'edited';
      } catch (error) {
        const failure = failureOf(error);
        if (failure?.kind === 'broken' && failure.code === UNKNOWN_MESSAGE) return 'gone';
        throw error;
      }
    },
  };
}

function failureOf(error: unknown): SendFailure | undefined {
  return error instanceof SendError ? error.failure : undefined;
}

function isReplyRefused(failure: SendFailure): boolean {
  return failure.kind === 'broken' && failure.status === 403 && REPLY_REFUSED_CODES.has(failure.code);
}
