import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Clock } from '../../src/base/clock.js';
import { createFakeServiceApp, type RequestRecord } from './create-fake-app.js';
import {
  DELIVERY_TIMEOUT_MS,
  DeliveryEngine,
  makeDeliveryId,
  type DeliveryEnvelope,
  type DeliveryRecord,
} from './delivery-engine.js';
import { DeveloperRegistry, type FakeSubmission, type FakeUpload } from './developer-registry.js';
import { KeyRegistry } from './key-registry.js';
import { RateLimiter } from './rate-limiter.js';
import { WebhookRegistry, type WebhookView } from './webhook-registry.js';

export type { DeliveryEnvelope, DeliveryFailure, DeliveryRecord } from './delivery-engine.js';
export type { RequestRecord } from './create-fake-app.js';
export type { WebhookView } from './webhook-registry.js';
export type { FakeApp, FakeSubmission, FakeUpload, FakeVersion } from './developer-registry.js';
export { FAKE_OPTIONS, UPLOAD_LIFETIME_MS } from './developer-registry.js';
export { SUBMISSIONS_PER_HOUR } from './developer-api.js';
export { MAX_CONSECUTIVE_FAILURES, MAX_WEBHOOKS_PER_KEY } from './webhook-registry.js';
export { generateEventStream, type EventStreamOptions } from './event-stream.js';

export interface FakeServiceOptions {
  /** Accept http:// webhook addresses (the real service wants https); test receivers run on http://127.0.0.1. */
  allowHttp?: boolean;
  /** Requests per key per minute before 429; default 60. */
  rateLimitPerMinute?: number;
  /** Milliseconds since the Unix epoch: timestamps, `at`, `createdAt` and the rate-limit window. */
  clock?: Clock;
  /** The receiver's answer deadline; default 5000 (§4.3). Tests of the timeout path pass less. */
  deliveryTimeoutMs?: number;
  /** What posts deliveries; default the global fetch. */
  fetch?: typeof fetch;
  /**
   * GET /apps/:id shows each version as id, version and state only, none of its submission fields: the document
   * does not show them (§2.3), so a real service may well answer so. Default false: every field is shown.
   */
  minimalVersions?: boolean;
}

/** An event to deliver: `id`, `server` and `at` are filled in when missing. */
export interface EventInput {
  event: string;
  data: unknown;
  id?: string;
  server?: string;
  at?: number;
}

/** A version to seed an app with: its label, its review state, and submission fields (name, description…). */
export interface VersionInput {
  version: string;
  status: string;
  submission?: object;
}

/**
 * A running fake of the service's server API v2 webhooks and delivery engine, and of its developer API v1 with
 * apps whose review state a test moves (upstream-api.md §3–§8).
 */
export interface FakeService {
  /** The service's base_url, i.e. what SERVICE_URL would be; no trailing slash. */
  readonly baseUrl: string;
  close(): Promise<void>;

  /** A fresh valid `usk_…` key, for a new game server unless `serverId` names one. */
  issueKey(serverId?: string): string;
  /** A new key for the same server: the old key answers 401 from now on (§5.4); webhooks stay. */
  replaceKey(oldKey: string): string;
  /** Revokes developer access: the key (and its server's other keys) answer 403. */
  revokeAccess(key: string): void;
  /** The game server id (digits) a live key belongs to; it is the `server` of its deliveries. */
  serverIdOf(key: string): string;
  /** The key's next request (server or developer key) answers 429 with `retry-after: <retryAfterSeconds>`. */
  rateLimitNext(key: string, retryAfterSeconds: number): void;

  /** A fresh developer key (`upk_…`) for a new developer account named `accountName`. */
  issueDeveloperKey(accountName?: string): string;
  /** A new developer key for the same account: the old key answers 401 from now on (§5.4). */
  replaceDeveloperKey(oldKey: string): string;
  /** Revokes the account's developer access: its keys answer 403 (§5.7). */
  revokeDeveloperAccess(key: string): void;
  /** Adds an app of the key's account with versions in the given review states; returns the app id. */
  addApp(key: string, input: { name: string; versions: readonly VersionInput[] }): number;
  /** Adds a version to an app as the developer portal would (its fields from the latest version unless given). */
  addVersion(appId: number, input: VersionInput): void;
  /** Moves a version to another review state, as the service's reviewers would. */
  setVersionState(appId: number, version: string, status: string): void;
  /** A version's current review state. */
  versionState(appId: number, version: string): string | undefined;
  /** Every upload received, bytes included. */
  uploads(): FakeUpload[];
  /** Every submission accepted (POST /apps and POST /apps/:id/submissions), oldest first. */
  submissions(): FakeSubmission[];

  /** Every webhook, without secrets. */
  webhooks(): WebhookView[];
  /** A webhook's secret, for tests that sign or verify by hand. */
  secretOf(webhookId: string): string;
  isEnabled(webhookId: string): boolean;
  /** Switches a webhook off as 20 failures would: a shortcut for tests of re-enabling. */
  disableWebhook(webhookId: string): void;

  /** Every delivery attempt, oldest first (a copy). */
  readonly deliveries: readonly DeliveryRecord[];
  /** Every API request the fake answered, oldest first (a copy, without headers). */
  readonly requests: readonly RequestRecord[];

  /**
   * Delivers an event to one webhook, subscribed to it or not (a test aiming at a webhook wants it sent).
   * @returns the attempt, or `undefined` when the webhook is switched off and nothing was sent
   */
  deliver(webhookId: string, event: EventInput): Promise<DeliveryRecord | undefined>;
  /**
   * Delivers a full envelope as the service does: to every enabled webhook of `envelope.server` subscribed to
   * `envelope.event`, one after another, in creation order.
   */
  emit(envelope: DeliveryEnvelope): Promise<DeliveryRecord[]>;
  /** Re-sends failed deliveries with their original delivery id; see {@link DeliveryEngine.retryFailed}. */
  retryFailed(): Promise<DeliveryRecord[]>;
}

/** Starts the fake on 127.0.0.1 with a free port. */
export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const clock = options.clock ?? Date.now;
  const keys = new KeyRegistry();
  const webhooks = new WebhookRegistry();
  const developers = new DeveloperRegistry(clock);
  const limiter = new RateLimiter(options.rateLimitPerMinute ?? 60, clock);
  const engine = new DeliveryEngine({
    webhooks,
    clock,
    timeoutMs: options.deliveryTimeoutMs ?? DELIVERY_TIMEOUT_MS,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
  });
  const requests: RequestRecord[] = [];
  const app = createFakeServiceApp({
    keys,
    limiter,
    webhooks,
    developers,
    engine,
    clock,
    allowHttp: options.allowHttp ?? false,
    requests,
    minimalVersions: options.minimalVersions ?? false,
  });

  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      // Keep-alive sockets of clients would hold close() open until they time out.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    issueKey: (serverId) => keys.issue(serverId),
    replaceKey: (oldKey) => keys.replace(oldKey),
    revokeAccess: (key) => keys.revoke(key),
    serverIdOf: (key) => keys.requireServer(key),
    rateLimitNext: (key, retryAfterSeconds) => limiter.forceNext(key, retryAfterSeconds),
    issueDeveloperKey: (accountName) => developers.issueKey(accountName),
    replaceDeveloperKey: (oldKey) => developers.replaceKey(oldKey),
    revokeDeveloperAccess: (key) => developers.revoke(key),
    addApp: (key, input) => developers.addApp(key, input),
    addVersion: (appId, input) => developers.seedVersion(appId, input),
    setVersionState: (appId, version, status) => developers.setVersionState(appId, version, status),
    versionState: (appId, version) =>
      developers.app(appId)?.versions.find((candidate) => candidate.version === version)?.status,
    uploads: () => developers.allUploads(),
    submissions: () => [...developers.submissions],
    webhooks: () => webhooks.list(),
    secretOf: (webhookId) => webhooks.require(webhookId).secret,
    isEnabled: (webhookId) => webhooks.require(webhookId).enabled,
    disableWebhook: (webhookId) => webhooks.disable(webhookId),
    get deliveries() {
      return engine.records;
    },
    get requests() {
      return [...requests];
    },
    async deliver(webhookId, event) {
      const webhook = webhooks.require(webhookId);
      const envelope: DeliveryEnvelope = {
        ...event,
        id: event.id ?? makeDeliveryId(),
        server: event.server ?? webhook.serverId,
        at: event.at ?? clock(),
      };
      return engine.deliver(webhook, envelope);
    },
    async emit(envelope) {
      const records: DeliveryRecord[] = [];
      for (const webhook of webhooks.ownedBy(envelope.server)) {
        if (!webhook.events.includes(envelope.event)) continue;
        const record = await engine.deliver(webhook, envelope);
        if (record) records.push(record);
      }
      return records;
    },
    retryFailed: () => engine.retryFailed(),
  };
}
