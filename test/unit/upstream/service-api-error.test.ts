import { describe, expect, it } from 'vitest';

import { UserFacingError } from '../../../src/base/errors.js';
import { ServiceApiError, type ServiceFailureDetails } from '../../../src/upstream/service-api-error.js';

const base = { operation: 'createWebhook', host: 'service.example.com' } as const;

function buildMessage(details: Omit<ServiceFailureDetails, 'operation' | 'host'>): string {
  return new ServiceApiError({ ...base, ...details }).message;
}

describe('ServiceApiError messages', () => {
  it('tells the admin what to do for 401, 403 and 429', () => {
    expect(buildMessage({ failure: 'rejected', status: 401 })).toBe(
      'the server key was replaced or revoked: run /setup with the new key',
    );
    expect(buildMessage({ failure: 'rejected', status: 403 })).toMatch(/^developer access was revoked/);
    expect(buildMessage({ failure: 'rejected', status: 429, retryAfterSeconds: 30 })).toBe(
      'the service is rate-limiting us: try again in 30 s',
    );
    expect(buildMessage({ failure: 'rejected', status: 429, retryAfterSeconds: 0 })).toBe(
      'the service is rate-limiting us: try again in 1 s',
    );
    expect(buildMessage({ failure: 'rejected', status: 429 })).toBe('the service is rate-limiting us: try again later');
  });

  it("quotes the service's code and message for other statuses", () => {
    expect(
      buildMessage({ failure: 'rejected', status: 422, code: 'invalid_url', serviceMessage: 'url must be https' }),
    ).toBe('the service refused the request (HTTP 422, invalid_url: url must be https)');
    expect(buildMessage({ failure: 'rejected', status: 400, code: 'bad' })).toBe(
      'the service refused the request (HTTP 400, bad)',
    );
    expect(buildMessage({ failure: 'rejected', status: 503 })).toBe(
      'the service failed with an internal error (HTTP 503, without an error description): try again later',
    );
  });

  it('words timeouts, unreachable hosts and unreadable answers', () => {
    expect(buildMessage({ failure: 'timeout', timeoutMs: 10_000 })).toBe('the service did not answer within 10 s');
    expect(buildMessage({ failure: 'unreachable' })).toBe('could not reach the service at service.example.com');
    expect(buildMessage({ failure: 'bad_answer', status: 200, problem: 'not JSON' })).toBe(
      'the service sent an answer we could not read (HTTP 200: not JSON)',
    );
  });

  it('is a UserFacingError carrying its details and no cause', () => {
    const error = new ServiceApiError({
      ...base,
      failure: 'rejected',
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: 5,
    });
    expect(error).toBeInstanceOf(UserFacingError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: 5,
      operation: 'createWebhook',
    });
    expect(error.cause).toBeUndefined();
  });
});
