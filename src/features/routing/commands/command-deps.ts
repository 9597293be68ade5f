import type { CommandBasics } from '../../../discord/command.js';
import type { HookStore } from '../../../store/hooks.js';
import type { ReplayDeps } from '../../replay/index.js';
import type { RoutingDeps } from '../feature.js';

/**
 * What /feed set, off, clear, default and show are given: the routing rules, the server's webhooks (a rule for
 * an event no webhook delivers is pointed out), and the replay window (set and default offer a replay).
 */
export type FeedRoutingDeps = Pick<CommandBasics, 'client'> &
  RoutingDeps & { hooks: Pick<HookStore, 'listForGuild'> } & {
    replays: Pick<ReplayDeps['replays'], 'windowHours'>;
  };
