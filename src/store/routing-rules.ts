import type { GuildSettings, RouteRule } from './guild-settings.js';

/** Where one event of a guild goes, and whom it pings. */
export interface Route {
  channelId: string;
  mentionRoleId?: string;
}

/** What a delivery is routed by: its event and, where it names them, its game server and case type. */
export interface RoutingKeys {
  event: string;
  server?: string | undefined;
  caseType?: string | undefined;
}

/**
 * Where a delivery goes: a route; `muted` when the winning rule is off (stored and counted, never posted); null
 * when no rule and no default channel names a channel (held as unrouted, so an admin sees it and can route it).
 */
export type RouteDecision = Route | 'muted' | null;

/**
 * How specific a rule is. A rule naming the game server beats any that does not; then one naming the event; then
 * one naming the case type. So: server + event + case type, server + event, server + case type, server, event +
 * case type, event, case type, and last the default channel. docs/commands.md ("Routing") and /feed show state
 * this order.
 */
export function specificityOf(rule: Pick<RouteRule, 'server' | 'event' | 'caseType'>): number {
  return (
    (rule.server !== undefined ? 4 : 0) + (rule.event !== undefined ? 2 : 0) + (rule.caseType !== undefined ? 1 : 0)
  );
}

/** The guild's rules, event-level ones (`/feed set event channel`) included, most specific first. */
export function rulesOf(settings: GuildSettings): RouteRule[] {
  const eventRules: RouteRule[] = Object.entries(settings.routes).map(([event, channelId]) => ({ event, channelId }));
  return [...settings.rules, ...eventRules].sort((a, b) => specificityOf(b) - specificityOf(a));
}

function matches(rule: RouteRule, keys: RoutingKeys): boolean {
  return (
    (rule.server === undefined || rule.server === keys.server) &&
    (rule.event === undefined || rule.event === keys.event) &&
    (rule.caseType === undefined || rule.caseType === keys.caseType)
  );
}

/** The most specific rule that matches the delivery; undefined when only the default channel applies. */
export function winningRule(settings: GuildSettings, keys: RoutingKeys): RouteRule | undefined {
  let best: RouteRule | undefined;
  const consider = (rule: RouteRule) => {
    if (matches(rule, keys) && (!best || specificityOf(rule) > specificityOf(best))) best = rule;
  };
  // Runs on every accept: no sorting, no copies. Rules per guild are few (MAX_RULES).
  for (const rule of settings.rules) consider(rule);
  const eventChannel = settings.routes[keys.event];
  if (eventChannel !== undefined) consider({ event: keys.event, channelId: eventChannel });
  return best;
}

/**
 * The channel of the most specific matching rule, else the default channel. The ping is the rule's own mention,
 * else the event's (`/feed mention`).
 */
export function resolveRoute(settings: GuildSettings, keys: RoutingKeys): RouteDecision {
  const rule = winningRule(settings, keys);
  const channelId = rule ? rule.channelId : settings.defaultChannelId;
  if (rule && channelId === null) return 'muted';
  if (!channelId) return null;
  const mentionRoleId = rule?.mentionRoleId ?? settings.mentions[keys.event];
  return mentionRoleId ? { channelId, mentionRoleId } : { channelId };
}

/** The channel a delivery goes to, or undefined when it is muted or unrouted. */
export function channelOf(decision: RouteDecision): string | undefined {
  return decision && decision !== 'muted' ? decision.channelId : undefined;
}
