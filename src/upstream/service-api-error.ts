import { UserFacingError } from '../base/errors.js';

/** The server API calls the client makes; named in errors so a log line says what was attempted. */
export type ServerOperation = 'createWebhook' | 'testWebhook' | 'enableWebhook';

/** The developer API v1 calls (upstream-api.md §4.1), one per endpoint. */
export const DEVELOPER_OPERATIONS = [
  'getMe',
  'getOptions',
  'upload',
  'listUploads',
  'getStore',
  'listApps',
  'getApp',
  'createApp',
  'submitVersion',
  'withdrawPending',
] as const;
export type DeveloperOperation = (typeof DEVELOPER_OPERATIONS)[number];

/** Every call either client makes. */
export type ServiceOperation = ServerOperation | DeveloperOperation;

const DEVELOPER_OPERATION_SET: ReadonlySet<string> = new Set(DEVELOPER_OPERATIONS);

/** True for the developer API's calls, whose key is the developer key (`/app key`), not the server key. */
export function isDeveloperOperation(operation: ServiceOperation): operation is DeveloperOperation {
  return DEVELOPER_OPERATION_SET.has(operation);
}

/**
 * How a call failed:
 * - `rejected`: the service answered with a non-2xx status;
 * - `timeout`: no complete answer within the client's deadline;
 * - `unreachable`: no answer at all (DNS, refused connection, TLS, reset);
 * - `bad_answer`: a 2xx answer we cannot use (not JSON, or missing what we need);
 * - `bad_key`: the key cannot be sent in a header at all, so the call was not made;
 * - `throttled`: not sent, to stay within the developer API's limits (a `retry-after` still running, or the
 *   key's 60 requests a minute used up); `retryAfterSeconds` says when it can go.
 */
export type ServiceFailure = 'rejected' | 'timeout' | 'unreachable' | 'bad_answer' | 'bad_key' | 'throttled';

/** What is known about a failed call. Nothing here may hold the server key: the client redacts before. */
export interface ServiceFailureDetails {
  operation: ServiceOperation;
  failure: ServiceFailure;
  /** The host (and port) of SERVICE_URL, for "could not reach the service at …". */
  host: string;
  status?: number;
  code?: string;
  serviceMessage?: string;
  retryAfterSeconds?: number;
  timeoutMs?: number;
  /** A system error code such as `ECONNREFUSED`, for logs. */
  networkCode?: string;
  /** For `bad_answer`: what was wrong with the answer. */
  problem?: string;
  /** For `throttled`: the service's own `retry-after` still running, or our count of the key's requests. */
  throttle?: 'retry_after' | 'budget';
}

/**
 * The one error the service client throws. Its `message` is a sentence an admin can act on, shown as it is in
 * Discord; the other fields are for code and logs. It never has a `cause`: fetch's errors can hold the
 * request, and the request holds the key.
 */
export class ServiceApiError extends UserFacingError {
  readonly operation: ServiceOperation;
  readonly failure: ServiceFailure;
  /** The HTTP status, when the service answered. */
  readonly status: number | undefined;
  /** `error.code` of the service's error body, when it sent one. */
  readonly code: string | undefined;
  /** `error.message` of the service's error body, when it sent one. */
  readonly serviceMessage: string | undefined;
  /** From `retry-after` on a 429, when the header was readable. */
  readonly retryAfterSeconds: number | undefined;
  readonly networkCode: string | undefined;

  constructor(details: ServiceFailureDetails) {
    super(describeFailure(details));
    this.operation = details.operation;
    this.failure = details.failure;
    this.status = details.status;
    this.code = details.code;
    this.serviceMessage = details.serviceMessage;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.networkCode = details.networkCode;
  }
}

/** What a 401 of the developer API means for the admin (upstream-api.md §5.4, §5.7). */
export const DEVELOPER_KEY_REFUSED =
  'the service no longer accepts the developer key (401: it was replaced or revoked): someone with Manage Server must run /app key with the current upk_… key';
/** What a 403 of the developer API means for the admin (§5.7). */
export const DEVELOPER_ACCESS_REVOKED =
  "the service says this account's developer access was revoked (403): the account owner must have it restored, then run /app key";

/** Turns what is known about a failure into the sentence the admin reads. */
function describeFailure(details: ServiceFailureDetails): string {
  switch (details.failure) {
    case 'bad_key':
      return isDeveloperOperation(details.operation)
        ? 'the stored developer key cannot be sent to the service: run /app key and paste the upk_… key exactly'
        : 'the stored server key cannot be sent to the service: run /setup and paste the usk_… key exactly';
    case 'timeout':
      return `the service did not answer within ${formatSeconds(details.timeoutMs ?? 0)} s`;
    case 'unreachable':
      return `could not reach the service at ${details.host}`;
    case 'bad_answer':
      return `the service sent an answer we could not read (HTTP ${details.status ?? '?'}: ${details.problem ?? 'unexpected shape'})`;
    case 'rejected':
      return describeRejection(details);
    case 'throttled':
      return describeThrottle(details);
  }
}

function describeRejection(details: ServiceFailureDetails): string {
  const status = details.status ?? 0;
  if (isDeveloperOperation(details.operation)) {
    if (status === 401) return DEVELOPER_KEY_REFUSED;
    if (status === 403) return DEVELOPER_ACCESS_REVOKED;
  }
  if (status === 401) return 'the server key was replaced or revoked: run /setup with the new key';
  if (status === 403) return 'developer access was revoked: the service refuses this server key until it is restored';
  if (status === 429) {
    const wait = details.retryAfterSeconds;
    // "try again in 0 s" reads like a bug; a zero wait still means the window has not quite turned.
    return wait === undefined
      ? 'the service is rate-limiting us: try again later'
      : `the service is rate-limiting us: try again in ${Math.max(1, wait)} s`;
  }
  const said = describeServiceWords(details);
  if (status >= 500) return `the service failed with an internal error (HTTP ${status}${said}): try again later`;
  return `the service refused the request (HTTP ${status}${said})`;
}

function describeThrottle(details: ServiceFailureDetails): string {
  const wait = `try again in ${Math.max(1, details.retryAfterSeconds ?? 1)} s`;
  return details.throttle === 'retry_after'
    ? `the service asked us to wait (429 with retry-after), so nothing was sent: ${wait}`
    : `this developer key has used its 60 requests of the last minute (commands and release cards share them), so nothing was sent: ${wait}`;
}

/** `, code: message` from the error body, or an explanation that there was none. */
function describeServiceWords(details: ServiceFailureDetails): string {
  const { code, serviceMessage } = details;
  if (code && serviceMessage) return `, ${code}: ${serviceMessage}`;
  if (code || serviceMessage) return `, ${code ?? serviceMessage ?? ''}`;
  return ', without an error description';
}

/** 10000 → "10", 250 → "0.25": whole seconds stay whole, short test deadlines stay exact. */
function formatSeconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}
