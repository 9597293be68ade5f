import { DiscordAPIError, HTTPError, RateLimitError, Routes, type Client } from 'discord.js';

import { SendError, type FeedMessageBody, type MessageSender, type SendFailure } from '../feed/send-failure.js';

/** Discord's JSON error codes that mean "this channel cannot take our messages" rather than "this message". */
const CHANNEL_UNUSABLE_CODES = new Set<number | string>([
  10003, // Unknown Channel
  50001, // Missing Access
  50013, // Missing Permissions
]);

/**
 * Sends feed messages through the discord.js client's REST layer, which queues per route and waits out 429s
 * by itself; what still fails is translated into what the feed should do about it.
 *
 * On a 401, @discordjs/rest drops the client's token, and every later request would fail with "Expected token
 * to be set" until a restart: the feed would stall silently. The token is put back at once, so the next try
 * (after the feed's backoff) asks Discord again.
 */
export function createChannelSender(client: Client, token: string): MessageSender {
  return async (channelId: string, body: FeedMessageBody) => {
    try {
      const posted = (await client.rest.post(Routes.channelMessages(channelId), { body })) as { id?: unknown };
      return typeof posted.id === 'string' ? posted.id : undefined;
    } catch (error) {
      const failure = classifyDiscordError(error);
      if (failure.kind === 'unauthorized') client.rest.setToken(token);
      throw new SendError(failure);
    }
  };
}

/** What a discord.js REST error means for the feed (see {@link SendFailure}). */
export function classifyDiscordError(error: unknown): SendFailure {
  if (error instanceof RateLimitError) {
    return { kind: 'wait', retryAfterMs: error.retryAfter, reason: 'rate limited' };
  }
  if (error instanceof DiscordAPIError) {
    const reason = `Discord ${error.status}: ${error.message}`;
    if (error.status === 401) return { kind: 'unauthorized', reason };
    if (error.status === 403 || error.status === 404 || CHANNEL_UNUSABLE_CODES.has(error.code)) {
      return { kind: 'broken', status: error.status, code: Number(error.code), reason };
    }
    if (error.status === 429) return { kind: 'wait', retryAfterMs: 1_000, reason };
    if (error.status >= 500) return { kind: 'retry', reason };
    return { kind: 'rejected', status: error.status, reason };
  }
  if (error instanceof HTTPError) return { kind: 'retry', reason: `Discord ${error.status}: ${error.message}` };
  // The token was dropped (after a 401 elsewhere) before this request was made.
  if (error instanceof Error && /Expected token to be set/.test(error.message)) {
    return { kind: 'unauthorized', reason: error.message };
  }
  // Timeouts (AbortError) and network errors: Discord may or may not have the message; the nonce covers that.
  return { kind: 'retry', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** Discord's epoch (2015-01-01): snowflakes count milliseconds from it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/**
 * Finds a feed message among the channel's messages since `since` (the oldest 100), by what it shows: a fetched
 * message carries no nonce, but every feed embed's footer names its delivery, so the same embeds (titles and
 * footers) are the same post. Needs Read Message History, which the feed's channels are checked for.
 */
export function createPostFinder(
  client: Client,
): (channelId: string, body: FeedMessageBody, since: number) => Promise<string | undefined> {
  return async (channelId, body, since) => {
    // A minute before: the clocks of this host and Discord's may differ a little.
    const after = (BigInt(Math.max(0, since - 60_000)) - DISCORD_EPOCH_MS) << 22n;
    const query = new URLSearchParams({ after: (after > 0n ? after : 0n).toString(), limit: '100' });
    let messages: Array<{ id: string; embeds?: Array<{ title?: string; footer?: { text?: string } }> }>;
    try {
      messages = (await client.rest.get(Routes.channelMessages(channelId), { query })) as typeof messages;
    } catch (error) {
      throw new SendError(classifyDiscordError(error));
    }
    const wanted = showing(body.embeds);
    return messages.find((message) => showing(message.embeds ?? []) === wanted)?.id;
  };
}

function showing(embeds: ReadonlyArray<{ title?: string; footer?: { text?: string } }>): string {
  return JSON.stringify(embeds.map((embed) => [embed.title ?? '', embed.footer?.text ?? '']));
}
