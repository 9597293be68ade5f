import express, { type NextFunction, type Request, type Response } from 'express';

import type { Clock } from '../../src/base/clock.js';
import { EVENT_NAMES } from '../../src/upstream/schemas.js';
import { makeDeliveryId, type DeliveryEngine } from './delivery-engine.js';
import { createDeveloperRouter } from './developer-api.js';
import type { DeveloperRegistry } from './developer-registry.js';
import { sendServiceError } from './error-body.js';
import type { KeyRegistry } from './key-registry.js';
import type { RateLimiter } from './rate-limiter.js';
import { MAX_WEBHOOKS_PER_KEY, type FakeWebhook, type WebhookRegistry } from './webhook-registry.js';

/** A request the fake answered: enough to assert "called once, no retry", never a header (keys live there). */
export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  /** When it arrived, by the fake's clock (ms since the Unix epoch): what per-minute counts are taken over. */
  at: number;
}

export interface FakeAppParts {
  keys: KeyRegistry;
  limiter: RateLimiter;
  webhooks: WebhookRegistry;
  /** Developer accounts, apps and uploads of the developer API v1. */
  developers: DeveloperRegistry;
  engine: DeliveryEngine;
  clock: Clock;
  /** Accept http:// webhook addresses, because test receivers listen on http://127.0.0.1. */
  allowHttp: boolean;
  /** Appended to as requests finish. */
  requests: RequestRecord[];
  /** Version records of GET /apps/:id carry only id, version and state (see FakeServiceOptions). */
  minimalVersions?: boolean;
}

const KNOWN_EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES);

/** The fake's Express app: the three webhook endpoints of the server API v2 (§4.2) and the developer API v1 (§4.1). */
export function createFakeServiceApp(parts: FakeAppParts): express.Express {
  const app = express();
  app.use((req, res, next) => {
    // Read now: inside a mounted router (the developer API) `req.path` is relative to the mount point.
    const { method, path } = req;
    const at = parts.clock();
    res.on('finish', () => parts.requests.push({ method, path, status: res.statusCode, at }));
    next();
  });
  app.use(express.json({ limit: '100kb' }));

  app.post('/api/server/v2/webhooks', (req, res) => {
    const serverId = admit(parts, req, res);
    if (serverId === undefined) return;
    const input = readWebhookInput(req.body as unknown, parts.allowHttp);
    if ('problem' in input) return sendServiceError(res, 400, input.problem.code, input.problem.message);
    const created = parts.webhooks.create(serverId, input.url, input.events, parts.clock());
    if (created === 'limit') {
      return sendServiceError(
        res,
        409,
        'webhook_limit',
        `A server key can have at most ${MAX_WEBHOOKS_PER_KEY} webhooks.`,
      );
    }
    const { id, url, events, enabled, secret, createdAt } = created;
    res.status(201).json({ id, url, events, enabled, secret, createdAt });
  });

  app.post('/api/server/v2/webhooks/:id/test', async (req, res) => {
    const webhook = findOwnWebhook(parts, req, res);
    if (!webhook) return;
    // Undocumented (§6 gaps): the fake takes a switched-off webhook to get no deliveries at all, pings included,
    // and to say so; the bot's health checks then see "no ping" for a webhook the service switched off.
    if (!webhook.enabled) {
      return sendServiceError(res, 409, 'webhook_disabled', 'This webhook is disabled: enable it first.');
    }
    // The ping's payload is undocumented (§6 gaps): the envelope of §2.5 with empty data is the guess.
    const envelope = { id: makeDeliveryId(), event: 'ping', server: webhook.serverId, at: parts.clock(), data: {} };
    const record = await parts.engine.ping(webhook, envelope);
    res
      .status(200)
      .json({ ok: true, delivery: { id: record.deliveryId, ok: record.ok, status: record.status ?? null } });
  });

  app.post('/api/server/v2/webhooks/:id/enable', (req, res) => {
    const webhook = findOwnWebhook(parts, req, res);
    if (!webhook) return;
    parts.webhooks.enable(webhook.id);
    res.status(200).json({ ok: true, id: webhook.id, enabled: true });
  });

  app.use(
    '/api/v1',
    createDeveloperRouter({
      developers: parts.developers,
      limiter: parts.limiter,
      clock: parts.clock,
      minimalVersions: parts.minimalVersions ?? false,
    }),
  );

  app.use((_req, res) => sendServiceError(res, 404, 'not_found', 'No such endpoint.'));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (isBodyParseError(error)) return sendServiceError(res, 400, 'invalid_json', 'The body is not valid JSON.');
    if (isTooLarge(error)) return sendServiceError(res, 413, 'too_large', 'The body is over the size limit.');
    sendServiceError(res, 500, 'internal_error', 'The fake service failed.');
  });
  return app;
}

/** Checks the key, then the rate limit; answers the refusal itself and returns the key's server otherwise. */
function admit(parts: FakeAppParts, req: Request, res: Response): string | undefined {
  const check = parts.keys.check(req.get('authorization'));
  if (!check.ok) {
    sendServiceError(res, check.refusal.status, check.refusal.code, check.refusal.message);
    return undefined;
  }
  const decision = parts.limiter.take(check.key);
  if (!decision.ok) {
    res.set('retry-after', String(decision.retryAfterSeconds));
    sendServiceError(res, 429, 'rate_limited', 'Too many requests for this key.');
    return undefined;
  }
  return check.serverId;
}

/** The webhook of `:id` when it belongs to the key's server; another server's webhook is as unknown as none. */
function findOwnWebhook(parts: FakeAppParts, req: Request, res: Response): FakeWebhook | undefined {
  const serverId = admit(parts, req, res);
  if (serverId === undefined) return undefined;
  const id = req.params['id'];
  const webhook = typeof id === 'string' ? parts.webhooks.get(id) : undefined;
  if (webhook?.serverId === serverId) return webhook;
  sendServiceError(res, 404, 'webhook_not_found', 'This key has no webhook with that id.');
  return undefined;
}

type WebhookInput = { url: string; events: string[] } | { problem: { code: string; message: string } };

function readWebhookInput(body: unknown, allowHttp: boolean): WebhookInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuseInput('invalid_body', 'Send a JSON object with url and events.');
  }
  const url = 'url' in body ? body.url : undefined;
  if (typeof url !== 'string' || !isAllowedAddress(url, allowHttp)) {
    return refuseInput('invalid_url', 'url must be an https address.');
  }
  const events = 'events' in body ? body.events : undefined;
  if (
    !Array.isArray(events) ||
    events.length === 0 ||
    !events.every((name) => typeof name === 'string' && KNOWN_EVENTS.has(name))
  ) {
    return refuseInput('invalid_events', `events must be a non-empty list of: ${EVENT_NAMES.join(', ')}.`);
  }
  return { url, events: [...new Set(events as string[])] };
}

function isAllowedAddress(text: string, allowHttp: boolean): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'https:' || (allowHttp && protocol === 'http:');
}

function refuseInput(code: string, message: string): WebhookInput {
  return { problem: { code, message } };
}

function isBodyParseError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'type' in error && error.type === 'entity.parse.failed';
}

function isTooLarge(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'type' in error && error.type === 'entity.too.large';
}
