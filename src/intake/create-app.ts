import { performance } from 'node:perf_hooks';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

import type { Logger } from '../base/logger.js';
import { outcomeOf, sendError, type DeliveryOutcome } from './error-response.js';
import { createWebhookHandler, type WebhookRouteDeps } from './webhook-route.js';

export interface AppDeps extends WebhookRouteDeps {
  /** Whether this process takes webhooks (ROLE intake or all); a feed-only process serves /healthz alone. */
  webhooks?: boolean;
  /** What GET /healthz reports besides `status`; `healthy` false answers 503 (the store fails). */
  health: () => Promise<{ healthy: boolean; report: Record<string, unknown> }>;
  logger: Logger;
  /** Told how each delivery was answered and how long after its request began, in seconds (the metrics). */
  onDelivery?: (outcome: DeliveryOutcome, seconds: number) => void;
}

/** The HTTP side of the bot, without listen: tests serve it on port 0, main.ts on PORT. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Behind a reverse proxy (docs/hosting.md, "Running behind HTTPS") the client address comes from X-Forwarded-For.
  app.set('trust proxy', 'loopback');

  app.get('/healthz', async (_req, res) => {
    const { healthy, report } = await deps.health();
    res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : 'degraded', ...report });
  });
  if (deps.webhooks !== false) {
    const handler = createWebhookHandler(deps);
    app.post('/webhooks/:hookId', ...(deps.onDelivery ? [timeAnswer(deps.onDelivery), handler] : [handler]));
  }

  app.use((_req: Request, res: Response) => sendError(res, 404, 'not_found', 'no such route'));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    deps.logger.error({ err: error, path: req.path }, 'intake failed');
    if (!res.headersSent) sendError(res, 500, 'internal_error', 'the delivery could not be stored; please retry');
  });
  return app;
}

/**
 * Times a delivery from its request to the answer handed to the socket ('finish'); a client gone before its
 * answer is not counted. Every answer notes its outcome (error-response.ts); none noted would be a 500.
 */
function timeAnswer(onDelivery: (outcome: DeliveryOutcome, seconds: number) => void): RequestHandler {
  return (_req, res, next) => {
    const start = performance.now();
    res.once('finish', () => onDelivery(outcomeOf(res) ?? 'internal_error', (performance.now() - start) / 1000));
    next();
  };
}
