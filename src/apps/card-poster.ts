import { DiscordAPIError, Routes, type Client } from 'discord.js';

import type { MessagePayload } from '../embeds/types.js';

/** Discord's "Unknown Message": the card was deleted in Discord. */
const UNKNOWN_MESSAGE = 10008;

/** Posts and edits the poller's messages in a watch channel. */
export interface CardPoster {
  /** Posts a message; `nonce` makes a retry after a lost answer land on the same message. Returns its id. */
  post(channelId: string, body: MessagePayload, nonce: string): Promise<string>;
  /** Edits a message in place; `gone` when it was deleted meanwhile (the caller then posts a new one). */
  edit(channelId: string, messageId: string, body: MessagePayload): Promise<'edited' | 'gone'>;
}

/**
 * The card poster on discord.js's REST layer (which waits out Discord's 429s by itself). Other Discord errors
 * reach the caller as they are: the poller reports them as its problem in /status.
 */
export function createCardPoster(client: Client): CardPoster {
  return {
    async post(channelId, body, nonce) {
      const answer = (await client.rest.post(Routes.channelMessages(channelId), {
        body: { ...body, nonce, enforce_nonce: true },
      })) as { id: string };
      return answer.id;
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
