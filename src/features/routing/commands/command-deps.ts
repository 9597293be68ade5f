import type { CommandBasics } from '../../../discord/command.js';
import type { HookStore } from '../../../store/hooks.js';
import type { RoutingDeps } from '../feature.js';

/**
 * What /feed set, off, clear, default and show are given: the routing rules, and the server's webhooks (a rule for
 * an event no webhook delivers is pointed out).
 */
export type FeedRoutingDeps = Pick<CommandBasics, 'client'> & RoutingDeps & { hooks: Pick<HookStore, 'listForGuild'> };
