import { DiscordAPIError, HTTPError } from 'discord.js';
import { describe, expect, it } from 'vitest';

import { classifyDiscordError } from '../../../src/discord/posting/classify-discord-error.js';

const apiError = (status: number, code: number, message: string) =>
  new DiscordAPIError({ code, message }, code, status, 'POST', '/channels/1/messages', { body: {} });

describe('what a failed send means for the feed', () => {
  it('a refused token is unauthorized, whether Discord said 401 or the client had dropped the token', () => {
    expect(classifyDiscordError(apiError(401, 0, '401: Unauthorized'))).toEqual({
      kind: 'unauthorized',
      reason: 'Discord 401: 401: Unauthorized',
    });
    expect(
      classifyDiscordError(new Error('Expected token to be set for this request, but none was present')),
    ).toMatchObject({
      kind: 'unauthorized',
    });
  });

  it('a channel that is gone or closed to the bot is broken', () => {
    expect(classifyDiscordError(apiError(403, 50001, 'Missing Access'))).toMatchObject({ kind: 'broken', status: 403 });
    expect(classifyDiscordError(apiError(404, 10003, 'Unknown Channel'))).toMatchObject({
      kind: 'broken',
      status: 404,
    });
    expect(classifyDiscordError(apiError(400, 50013, 'Missing Permissions'))).toMatchObject({ kind: 'broken' });
  });

  it('a message Discord will not take is rejected; Discord failing or a lost answer is retried', () => {
    expect(classifyDiscordError(apiError(400, 50035, 'Invalid Form Body'))).toMatchObject({
      kind: 'rejected',
      status: 400,
    });
    expect(classifyDiscordError(apiError(502, 0, 'Bad Gateway'))).toMatchObject({ kind: 'retry' });
    expect(classifyDiscordError(new HTTPError(503, 'Service Unavailable', 'POST', '/x', { body: {} }))).toMatchObject({
      kind: 'retry',
    });
    expect(classifyDiscordError(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toEqual({
      kind: 'retry',
      reason: 'AbortError: aborted',
    });
    expect(classifyDiscordError('socket hang up')).toEqual({ kind: 'retry', reason: 'socket hang up' });
  });

  it('a 429 that reached the feed waits', () => {
    expect(classifyDiscordError(apiError(429, 0, 'You are being rate limited.'))).toMatchObject({
      kind: 'wait',
      retryAfterMs: 1_000,
    });
  });
});
