import { truncateText } from '../base/truncate-text.js';
import { parseRetryAfter } from './retry-after.js';
import { ServiceErrorBodySchema } from './schemas.js';
import { ServiceApiError, type ServiceFailureDetails, type ServiceOperation } from './service-api-error.js';

/** Where and how one of the service's APIs is called; built once by its client. */
export interface ServiceTransport {
  /** `${SERVICE_URL}/api/server/v2` or `${SERVICE_URL}/api/v1`, without a trailing slash. */
  apiBase: string;
  /** Host (and port) of SERVICE_URL, for messages; never holds credentials. */
  host: string;
  fetch: typeof fetch;
  timeoutMs: number;
  /** Milliseconds since the Unix epoch, to read a `retry-after` date. */
  clock: () => number;
}

/** One request to the service; POST unless `method` says otherwise. */
export interface ServiceCall {
  operation: ServiceOperation;
  /** The guild's key, sent as the Bearer token and kept out of every error. */
  key: string;
  /** Path below the API base, starting with `/` (a query included, its values encoded by the caller). */
  path: string;
  method?: 'GET' | 'POST' | 'DELETE';
  /** A JSON body; omitted, the request has none. */
  body?: unknown;
  /** Raw bytes sent as they are (POST /uploads), instead of a JSON body. */
  bytes?: { data: Uint8Array; contentType: string };
  /** Sees the headers and status of every answer, 2xx or not (the developer API's rate-limit headers). */
  onAnswer?: (headers: Headers, status: number) => void;
}

/** A 2xx answer. `json` is `undefined` when the body was empty or not JSON (`text` then says which). */
export interface ServiceAnswer {
  status: number;
  json: unknown;
  hasJson: boolean;
  text: string;
}

/**
 * Printable ASCII without spaces: what a Bearer token can be. Anything else would make fetch throw an error
 * that quotes the header value, i.e. the key, so such a key is refused before any request is built.
 */
const SENDABLE_KEY = /^[\x21-\x7e]{1,1024}$/;
/** The service's words end up in a Discord message: long enough to be useful, short enough to fit. */
const MAX_SERVICE_TEXT = 300;

/**
 * Sends one request to the service and returns the 2xx answer, or throws a {@link ServiceApiError}.
 * Never retries: a retry is the admin's decision, made with the message in front of them.
 */
export async function callService(transport: ServiceTransport, call: ServiceCall): Promise<ServiceAnswer> {
  const known = { operation: call.operation, host: transport.host };
  if (!SENDABLE_KEY.test(call.key)) throw new ServiceApiError({ ...known, failure: 'bad_key' });

  const signal = AbortSignal.timeout(transport.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await transport.fetch(transport.apiBase + call.path, buildRequest(call, signal));
    // Reading the body is under the same deadline: a service that sends headers and then stalls is a timeout.
    text = await response.text();
  } catch (error) {
    // The caught error is dropped on purpose: undici's errors can reference the request and its headers.
    if (signal.aborted) throw new ServiceApiError({ ...known, failure: 'timeout', timeoutMs: transport.timeoutMs });
    throw new ServiceApiError({ ...known, failure: 'unreachable', ...readNetworkCode(error, call.key) });
  }

  call.onAnswer?.(response.headers, response.status);
  const answer = readAnswer(response.status, text);
  if (response.ok) return answer;
  throw new ServiceApiError({
    ...known,
    failure: 'rejected',
    status: response.status,
    ...readErrorBody(answer.json, call.key),
    ...readRetryAfter(response, transport.clock()),
  });
}

function buildRequest(call: ServiceCall, signal: AbortSignal): RequestInit {
  const method = call.method ?? 'POST';
  const headers: Record<string, string> = { authorization: `Bearer ${call.key}`, accept: 'application/json' };
  if (call.bytes !== undefined) {
    headers['content-type'] = call.bytes.contentType;
    return { method, headers, body: call.bytes.data, signal };
  }
  if (call.body === undefined) return { method, headers, signal };
  headers['content-type'] = 'application/json';
  return { method, headers, body: JSON.stringify(call.body), signal };
}

function readAnswer(status: number, text: string): ServiceAnswer {
  if (text.trim() === '') return { status, json: undefined, hasJson: false, text };
  try {
    return { status, json: JSON.parse(text) as unknown, hasJson: true, text };
  } catch {
    return { status, json: undefined, hasJson: false, text };
  }
}

/** `code` and `serviceMessage` from a `{error:{code,message}}` body; nothing when the body is another shape. */
function readErrorBody(json: unknown, key: string): Pick<ServiceFailureDetails, 'code' | 'serviceMessage'> {
  const parsed = ServiceErrorBodySchema.safeParse(json);
  if (!parsed.success) return {};
  return {
    code: cleanServiceText(parsed.data.error.code, key),
    serviceMessage: cleanServiceText(parsed.data.error.message, key),
  };
}

function readRetryAfter(response: Response, now: number): Pick<ServiceFailureDetails, 'retryAfterSeconds'> {
  if (response.status !== 429) return {};
  const seconds = parseRetryAfter(response.headers.get('retry-after'), now);
  return seconds === undefined ? {} : { retryAfterSeconds: seconds };
}

/** The system error code (`ECONNREFUSED`, `UND_ERR_SOCKET`, …) of fetch's cause: a fixed word, safe to keep. */
function readNetworkCode(error: unknown, key: string): Pick<ServiceFailureDetails, 'networkCode'> {
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  const code: unknown = typeof cause === 'object' && cause !== null && 'code' in cause ? cause.code : undefined;
  if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]{1,40}$/.test(code) || code.includes(key)) return {};
  return { networkCode: code };
}

/**
 * The service's own words, made safe to show: a service that echoes the Authorization header back (a proxy
 * error page, a debugging build) must not put the key into a Discord message or a log line.
 */
function cleanServiceText(text: string, key: string): string {
  const redacted = text.split(key).join('[redacted]');
  return truncateText(redacted, MAX_SERVICE_TEXT);
}
