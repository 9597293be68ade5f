import { DiscordAPIError, Routes, type Client } from 'discord.js';

import type { MessagePayload } from '../embeds/types.js';
import type { Logger } from '../logger.js';

/** Discord's "Unknown Message": the card was deleted in Discord. */
const UNKNOWN_MESSAGE = 10008;
/** How Discord refuses a reply in a channel where the bot lacks Read Message History (160002, or 50013). */
const REPLY_REFUSED_CODES = new Set<unknown>([160002, 50013]);

/** Posts and edits the poller's messages in a watch channel. */
export interface CardPoster {
  /** Posts a message; `nonce` makes a retry after a lost answer land on the same message. Returns its id. */
  post(channelId: string, body: MessagePayload, nonce: string): Promise<string>;
  /** Edits a message in place; `gone` when it was deleted meanwhile (the caller then posts a new one). */
  edit(channelId: string, messageId: string, body: MessagePayload): Promise<'edited' | 'gone'>;
}

/**
 * The card poster on discord.js's REST layer (which waits out Discord's 429s by itself). A reply (a body with
 * `message_reference`) that Discord refuses for want of Read Message History is logged on `logger` and posted
 * without its reference: the message matters more than the thread, and a refused reply must not stop the
 * channel. Other Discord errors reach the caller as they are: the poller reports them as its problem in /status.
 */
export function createCardPoster(client: Client, logger?: Logger): CardPoster {
  const send = async (channelId: string, body: object, nonce: string) => {
    const answer = (await client.rest.post(Routes.channelMessages(channelId), {
      body: { ...body, nonce, enforce_nonce: true },
    })) as { id: string };
    return answer.id;
  };
  return {
    async post(channelId, body, nonce) {
      try {
        return await send(channelId, body, nonce);
      } catch (error) {
        if (!('message_reference' in body) || !isReplyRefused(error)) throw error;
        logger?.warn(
          { channelId, reason: describeDiscordError(error) },
          'reply refused (the bot lacks Read Message History there): posted without its reference',
        );
        const standalone: Record<string, unknown> = { ...body };
        delete standalone['message_reference'];
        // Discord kept nothing of the refused request, so the same nonce still guards against a duplicate.
        return send(channelId, standalone, nonce);
      }
    },
    async edit(channelId, messageId, body) {
      try {
        await client.rest.patch(Routes.channelMessage(channelId, messageId), { body });
        return 'edited';
      } catch (error) {
        if (error instanceof DiscordAPIError && error.code === UNKNOWN_MESSAGE) return 'gone';
        throw error;
      }
    },
  };
}

/** A Discord error in words for /status: status and Discord's message, never a request body. */
export function describeDiscordError(error: unknown): string {
  if (error instanceof DiscordAPIError) return `Discord ${error.status}: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function isReplyRefused(error: unknown): boolean {
  return error instanceof DiscordAPIError && error.status === 403 && REPLY_REFUSED_CODES.has(error.code);
}
