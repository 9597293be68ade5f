import express, { type NextFunction, type Request, type Response } from 'express';

import type { Logger } from '../base/logger.js';
import { sendError } from './error-response.js';
import { createWebhookHandler, type WebhookRouteDeps } from './webhook-route.js';

export interface AppDeps extends WebhookRouteDeps {
  /** Whether this process takes webhooks (ROLE intake or all); a feed-only process serves /healthz alone. */
  webhooks?: boolean;
  /** What GET /healthz reports besides `status`; `healthy` false answers 503 (the store fails). */
  health: () => Promise<{ healthy: boolean; report: Record<string, unknown> }>;
  logger: Logger;
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
  if (deps.webhooks !== false) app.post('/webhooks/:hookId', createWebhookHandler(deps));

  app.use((_req: Request, res: Response) => sendError(res, 404, 'not_found', 'no such route'));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    deps.logger.error({ err: error, path: req.path }, 'intake failed');
    if (!res.headersSent) sendError(res, 500, 'internal_error', 'the delivery could not be stored; please retry');
  });
  return app;
}
