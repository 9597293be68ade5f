import { callService, type ServiceAnswer, type ServiceTransport } from './call-service.js';
import { CreatedWebhookSchema, type CreatedWebhook, type EventName } from './schemas.js';
import { ServiceApiError } from './service-api-error.js';

export { ServiceApiError } from './service-api-error.js';
export type { ServiceFailure, ServiceOperation } from './service-api-error.js';

/** How long a call may take, answer body included, before it fails with "did not answer within 10 s". */
export const DEFAULT_SERVICE_TIMEOUT_MS = 10_000;

/** The path of the server API below SERVICE_URL (upstream-api.md §9). */
const SERVER_API_PATH = '/api/server/v2';

export interface ServiceClientOptions {
  /** The service's base_url (SERVICE_URL); a trailing slash, query or fragment is ignored. */
  serviceUrl: string;
  /** Defaults to the global fetch; tests may pass their own. */
  fetch?: typeof fetch;
  /** Defaults to {@link DEFAULT_SERVICE_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Milliseconds since the Unix epoch; only used to read a `retry-after` date. */
  clock?: () => number;
}

/** What POST /webhooks needs (§4.2). */
export interface CreateWebhookInput {
  /** The https address the service will post to: `${PUBLIC_URL}/webhooks/${hookId}`. */
  url: string;
  events: readonly EventName[];
}

/**
 * The server API v2 webhook calls (upstream-api.md §4.2). Keys belong to guilds, so each call takes one.
 * Every failure is a {@link ServiceApiError} whose message can be shown to the admin as it is.
 */
export interface ServiceClient {
  /** Registers a webhook. The answer holds the `secret`, which the service shows only this once. */
  createWebhook(key: string, input: CreateWebhookInput): Promise<CreatedWebhook>;
  /**
   * Asks the service to send a ping delivery to the webhook's address.
   * @returns the answer body, whose shape is undocumented: a JSON value, or `undefined` when empty or not JSON
   */
  testWebhook(key: string, webhookId: string): Promise<unknown>;
  /**
   * Switches a webhook that the service turned off (after 20 failed deliveries) back on.
   * @returns the answer body, whose shape is undocumented: a JSON value, or `undefined` when empty or not JSON
   */
  enableWebhook(key: string, webhookId: string): Promise<unknown>;
}

/**
 * Builds the server API client.
 * @throws Error when `serviceUrl` is not an http(s) URL: a configuration mistake, reported at startup
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const transport = buildServiceTransport(options, SERVER_API_PATH);
  const webhookPath = (webhookId: string, action: string) => `/webhooks/${encodeURIComponent(webhookId)}/${action}`;
  return {
    async createWebhook(key, input) {
      const body = { url: input.url, events: [...input.events] };
      const answer = await callService(transport, { operation: 'createWebhook', key, path: '/webhooks', body });
      return readCreatedWebhook(answer, transport.host);
    },
    async testWebhook(key, webhookId) {
      const answer = await callService(transport, {
        operation: 'testWebhook',
        key,
        path: webhookPath(webhookId, 'test'),
      });
      return answer.json;
    },
    async enableWebhook(key, webhookId) {
      const answer = await callService(transport, {
        operation: 'enableWebhook',
        key,
        path: webhookPath(webhookId, 'enable'),
      });
      return answer.json;
    },
  };
}

/**
 * Where one of the service's APIs lives: SERVICE_URL's origin and path, then `apiPath` (`/api/server/v2`,
 * `/api/v1`), with the client's fetch, deadline and clock.
 * @throws Error when `serviceUrl` is not an http(s) URL
 */
export function buildServiceTransport(options: ServiceClientOptions, apiPath: string): ServiceTransport {
  let url: URL;
  try {
    url = new URL(options.serviceUrl);
  } catch {
    throw new Error('SERVICE_URL is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('SERVICE_URL must be an http(s) URL');
  // `origin` leaves out user:password@ (fetch refuses URLs with credentials) along with query and fragment.
  const apiBase = url.origin + url.pathname.replace(/\/+$/, '') + apiPath;
  return {
    apiBase,
    host: url.host,
    // Called through a wrapper: a fetch invoked as a method of another object may object to its `this`.
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: options.timeoutMs ?? DEFAULT_SERVICE_TIMEOUT_MS,
    clock: options.clock ?? Date.now,
  };
}

/**
 * The webhook object of the creation answer. The documentation says only "the created webhook", so an object
 * wrapped as `{ webhook: {…} }` is accepted too rather than failing a registration over an envelope.
 */
function readCreatedWebhook(answer: ServiceAnswer, host: string): CreatedWebhook {
  const fail = (problem: string) =>
    new ServiceApiError({ operation: 'createWebhook', failure: 'bad_answer', host, status: answer.status, problem });
  if (!answer.hasJson) throw fail('not JSON');
  const { json } = answer;
  const wrapped = typeof json === 'object' && json !== null && 'webhook' in json ? json.webhook : undefined;
  for (const candidate of [json, wrapped]) {
    const parsed = CreatedWebhookSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  throw fail('no webhook id and secret');
}
