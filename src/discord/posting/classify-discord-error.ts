import { DiscordAPIError, HTTPError, RateLimitError, type Client } from 'discord.js';

import { SendError, type SendFailure } from './send-failure.js';

/** Discord's JSON error codes that mean "this channel cannot take our messages" rather than "this message". */
const CHANNEL_UNUSABLE_CODES = new Set<number | string>([
  10003, // Unknown Channel
  50001, // Missing Access
  50013, // Missing Permissions
]);

/** What a discord.js REST error means for whoever posted (see {@link SendFailure}). */
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
    return { kind: 'rejected', status: error.status, code: Number(error.code), reason };
  }
  if (error instanceof HTTPError) return { kind: 'retry', reason: `Discord ${error.status}: ${error.message}` };
  // The token was dropped (after a 401 elsewhere) before this request was made.
  if (error instanceof Error && /Expected token to be set/.test(error.message)) {
    return { kind: 'unauthorized', reason: error.message };
  }
  // Timeouts (AbortError) and network errors: Discord may or may not have the message; the nonce covers that.
  return { kind: 'retry', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/**
 * A failure of a Discord request in words, for logs and /status: Discord's status and message, never a request
 * body. Any other error (the store's, say) is named by its type and message.
 */
export function describeDiscordError(error: unknown): string {
  return error instanceof SendError ? error.failure.reason : classifyDiscordError(error).reason;
}

/**
 * Runs one REST request; a failure rejects with a {@link SendError} that says what it means (and, given, which
 * channel the request was about).
 *
 * On a 401, @discordjs/rest drops the client's token, and every later request would fail with "Expected token
 * to be set" until a restart: whatever posts would stall silently. The token (when given) is put back at once,
 * so the next try (after the caller's backoff) asks Discord again.
 */
export async function requestDiscord<T>(
  client: Client,
  token: string | undefined,
  request: () => Promise<T>,
  channelId?: string,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const failure = classifyDiscordError(error);
    if (failure.kind === 'unauthorized' && token !== undefined) client.rest.setToken(token);
    throw new SendError(failure, channelId);
  }
}
