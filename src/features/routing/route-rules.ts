import { UserFacingError } from '../../base/errors.js';
import { MAX_RULES, type GuildSettings, type RouteRule } from '../../store/guild-settings.js';
import { rulesOf } from '../../store/routing-rules.js';
import { ALL_EVENTS } from '../../upstream/event-choices.js';
import { EVENT_NAMES } from '../../upstream/schemas.js';

/** What a rule names: the deliveries it applies to. A field left out matches anything. */
export type RuleScope = Pick<RouteRule, 'server' | 'event' | 'caseType'>;

/** The service's server ids are digits in a string (upstream-api.md §3). */
const SERVER_ID = /^\d{1,20}$/;
/** Case types the service sends look like `warn`; allowed values beyond it are not documented. */
const CASE_TYPE = /^[a-z0-9_-]{1,32}$/;

/** The order /feed show and docs/commands.md ("Routing") state; the same as {@link specificityOf}. */
export const SPECIFICITY_ORDER =
  'server + event + case type, then server + event, server + case type, server, event + case type, event, case type, ' +
  'and last the default channel';

/**
 * The scope of /feed set|off|clear from its options.
 * @throws UserFacingError for a server id that is not digits, a case type on an event that has none, or a rule
 * that would name nothing (that is the default channel's job)
 */
export function readRuleScope(options: { event: string; server: string | null; caseType: string | null }): RuleScope {
  const server = options.server?.trim() || undefined;
  const caseType = options.caseType?.trim().toLowerCase() || undefined;
  const event = options.event === ALL_EVENTS ? undefined : options.event;
  if (server !== undefined && !SERVER_ID.test(server)) {
    throw new UserFacingError('Give the server as the game server id the service sends (digits only).');
  }
  if (caseType !== undefined) {
    if (!CASE_TYPE.test(caseType)) {
      throw new UserFacingError('Give the case type as the service sends it: one word, like `warn` or `ban`.');
    }
    if (event !== undefined && !event.startsWith('case.')) {
      throw new UserFacingError('A case type applies to case events only: use event:case.created, case.voided or all.');
    }
  }
  if (event === undefined && server === undefined && caseType === undefined) {
    throw new UserFacingError(
      'A rule for all events needs a server or a case type. For every event, use /feed default.',
    );
  }
  return {
    ...(server !== undefined ? { server } : {}),
    ...(event !== undefined ? { event } : {}),
    ...(caseType !== undefined ? { caseType } : {}),
  };
}

/** A rule by event alone lives in `routes` (channel) and `mentions` (ping), as it did before rules existed. */
function isEventOnly(scope: RuleScope): scope is { event: string } {
  return scope.event !== undefined && scope.server === undefined && scope.caseType === undefined;
}

function sameScope(rule: RuleScope, scope: RuleScope): boolean {
  return rule.server === scope.server && rule.event === scope.event && rule.caseType === scope.caseType;
}

/**
 * Settings with the rule for `scope` sending to `channelId` (null: off). `mentionRoleId` undefined keeps the
 * rule's ping as it was; null removes it.
 * @throws UserFacingError when the guild already has {@link MAX_RULES} rules and this is a new one
 */
export function withRule(
  settings: GuildSettings,
  scope: RuleScope,
  channelId: string | null,
  mentionRoleId?: string | null,
): GuildSettings {
  if (isEventOnly(scope)) {
    const mentions = { ...settings.mentions };
    if (mentionRoleId === null) delete mentions[scope.event];
    else if (mentionRoleId !== undefined) mentions[scope.event] = mentionRoleId;
    return { ...settings, routes: { ...settings.routes, [scope.event]: channelId }, mentions };
  }
  const existing = settings.rules.find((rule) => sameScope(rule, scope));
  if (!existing && settings.rules.length >= MAX_RULES) {
    throw new UserFacingError(`This server has ${MAX_RULES} rules, the most it may have: /feed clear one first.`);
  }
  const mention = mentionRoleId === undefined ? existing?.mentionRoleId : (mentionRoleId ?? undefined);
  const rule: RouteRule = { ...scope, channelId, ...(mention !== undefined ? { mentionRoleId: mention } : {}) };
  const rules = existing
    ? settings.rules.map((candidate) => (candidate === existing ? rule : candidate))
    : [...settings.rules, rule];
  return { ...settings, rules };
}

/** Settings without the rule for `scope` (an event-only rule keeps its /feed mention ping); the same when none. */
export function withoutRule(settings: GuildSettings, scope: RuleScope): GuildSettings {
  if (isEventOnly(scope)) {
    const routes = { ...settings.routes };
    delete routes[scope.event];
    return { ...settings, routes };
  }
  return { ...settings, rules: settings.rules.filter((rule) => !sameScope(rule, scope)) };
}

/** Whether the settings have a rule for exactly `scope`. */
export function hasRule(settings: GuildSettings, scope: RuleScope): boolean {
  if (isEventOnly(scope)) return settings.routes[scope.event] !== undefined;
  return settings.rules.some((rule) => sameScope(rule, scope));
}

/** "case.created · case type ban · server 123", as admins typed it. */
export function describeScope(scope: RuleScope): string {
  const parts = [
    ...(scope.server !== undefined ? [`server ${scope.server}`] : []),
    scope.event ?? 'all events',
    ...(scope.caseType !== undefined ? [`case type ${scope.caseType}`] : []),
  ];
  return parts.join(' · ');
}

/** Where a rule sends its deliveries, in words. */
export function describeTarget(channelId: string | null): string {
  return channelId === null ? 'off (muted: counted in /status, not posted)' : `<#${channelId}>`;
}

/**
 * /feed show's lines: every rule, most specific first, then each event that has no rule of its own with where
 * the default channel sends it. A ping is the rule's own, else the event's.
 */
export function describeRules(settings: GuildSettings): string[] {
  const ping = (roleId: string | undefined) => (roleId ? ` · pings <@&${roleId}>` : '');
  const lines = rulesOf(settings).map((rule) => {
    const roleId = rule.mentionRoleId ?? (rule.event !== undefined ? settings.mentions[rule.event] : undefined);
    return `• ${describeScope(rule)} → ${describeTarget(rule.channelId)}${ping(roleId)}`;
  });
  const fallback = settings.defaultChannelId ? `<#${settings.defaultChannelId}> (default)` : undefined;
  for (const event of EVENT_NAMES) {
    if (settings.routes[event] !== undefined) continue;
    lines.push(`• ${event} → ${fallback ?? 'nowhere yet: its events wait'}${ping(settings.mentions[event])}`);
  }
  return lines;
}
