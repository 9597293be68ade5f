/** What other features and the shared commands may use of the routing: /feed set, off, clear, default and show. */
export type { FeedRoutingDeps } from './commands/command-deps.js';
export { setDefaultChannel } from './commands/feed/default.js';
export { clearRule, setEventChannel, turnEventOff } from './commands/feed/set.js';
export { showRoutes } from './commands/feed/show.js';
