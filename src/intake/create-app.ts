import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import express, { type NextFunction, type Request, type Response } from 'express';

import type { Logger } from '../base/logger.js';
import { sendError, type DeliveryOutcome } from './error-response.js';
import { createWebhookHandler, type WebhookHandler, type WebhookRouteDeps } from './webhook-route.js';

export interface AppDeps extends WebhookRouteDeps {
  /** Whether this process takes webhooks (ROLE intake or all); a feed-only process serves /healthz alone. */
  webhooks?: boolean;
  /** What GET /healthz reports besides `status`; `healthy` false answers 503 (the store fails). */
  health: () => Promise<{ healthy: boolean; report: Record<string, unknown> }>;
  logger: Logger;
  /** Told how each delivery was answered and how long after its request began, in seconds (the metrics). */
  onDelivery?: (outcome: DeliveryOutcome, seconds: number) => void;
}

/**
 * POST /webhooks/:hookId as Express would match it (any case, a trailing slash, a query string), the hook's id
 * undecoded. What does not match goes to Express (a 404 for a GET or a longer path).
 */
const WEBHOOK_PATH = /^\/webhooks\/([^/?]+)\/?(?:\?|$)/i;

/**
 * The HTTP side of the bot, without listen: tests serve it on port 0, main.ts on PORT. Deliveries are answered
 * before Express sees them: its per-request work (the router, its request and response objects, the final handler)
 * cost more than a third of the intake's own path (`intake.http_path_vs_express`, docs/benchmarks.md); /healthz
 * and every other request go through Express.
 */
export function createApp(deps: AppDeps): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  // Behind a reverse proxy (docs/hosting.md, "Running behind HTTPS") the client address comes from X-Forwarded-For.
  app.set('trust proxy', 'loopback');

  app.get('/healthz', async (_req, res) => {
    const { healthy, report } = await deps.health();
    res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : 'degraded', ...report });
  });
  app.use((_req: Request, res: Response) => sendError(res, 404, 'not_found', 'no such route'));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => failed(deps.logger, error, req, res));
  if (deps.webhooks === false) return app;

  const deliveries = answerDeliveries(createWebhookHandler(deps), deps);
  return (req, res) => {
    const hookId = req.method === 'POST' ? hookIdOf(req.url) : undefined;
    if (hookId === undefined) app(req, res);
    else deliveries(req, res, hookId);
  };
}

/** The hook's id of a delivery's path, decoded; undefined when it is not one (or does not decode). */
function hookIdOf(url: string | undefined): string | undefined {
  const encoded = url === undefined ? undefined : WEBHOOK_PATH.exec(url)?.[1];
  if (encoded === undefined) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/**
 * Runs the webhook handler: a store that failed is answered 500 and logged, as Express's error handler answers; each
 * answer is timed from its request to the answer handed to the socket ('finish') when `onDelivery` listens, with the
 * outcome the handler resolved with (a client gone before its answer is not counted).
 */
function answerDeliveries(
  handler: WebhookHandler,
  deps: AppDeps,
): (req: IncomingMessage, res: ServerResponse, hookId: string) => void {
  const { onDelivery, logger } = deps;
  return (req, res, hookId) => {
    const start = onDelivery ? performance.now() : 0;
    const answered = handler(req, res, hookId).catch((error: unknown): DeliveryOutcome => {
      failed(logger, error, req, res);
      return 'internal_error';
    });
    if (!onDelivery) return;
    void answered.then((outcome) => {
      const report = () => onDelivery(outcome, (performance.now() - start) / 1000);
      if (res.writableFinished) report();
      else res.once('finish', report);
    });
  };
}

function failed(logger: Logger, error: unknown, req: IncomingMessage, res: ServerResponse): void {
  logger.error({ err: error, path: req.url?.split('?')[0] }, 'intake failed');
  if (!res.headersSent) sendError(res, 500, 'internal_error', 'the delivery could not be stored; please retry');
}
