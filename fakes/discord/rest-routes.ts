/**
 * Every REST route the fake answers, in one table.
 */
import { applicationRoutes } from './routes/application-routes.js';
import { attachmentRoutes } from './routes/attachment-routes.js';
import { channelRoutes } from './routes/channel-routes.js';
import { guildRoutes } from './routes/guild-routes.js';
import { interactionRoutes } from './routes/interaction-routes.js';
import type { RouteDeps } from './routes/route-deps.js';
import type { Route } from './routes/router.js';
import { threadRoutes } from './routes/thread-routes.js';

/** The fake's REST routes; anything else is answered 404 and recorded as unhandled. */
export function createRestRoutes(deps: RouteDeps): Route[] {
  return [
    ...channelRoutes(deps),
    ...threadRoutes(deps),
    ...guildRoutes(deps),
    ...interactionRoutes(deps),
    ...applicationRoutes(deps),
    ...attachmentRoutes(deps.attachments),
  ];
}
