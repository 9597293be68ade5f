import type { ConductRules, RuleName, RuleSetting } from './store/rule-settings.js';

export {
  DEFAULT_BURST,
  DEFAULT_RULES,
  RULE_NAMES,
  type ConductRules,
  type RuleName,
  type RuleSetting,
} from './store/rule-settings.js';

/** The rules with a count and a window. */
export const BURST_RULES: ReadonlySet<RuleName> = new Set<RuleName>(['bans', 'voids']);

/** The least and most a burst may count, and its longest window (a day). */
export const BURST_COUNT_RANGE = { min: 2, max: 100 } as const;
export const BURST_MINUTES_RANGE = { min: 1, max: 1440 } as const;

/**
 * Findings of a rule that is not a burst are grouped when their cases come within this of each other: a moderator
 * off shift for an hour gets one alert, not one per case.
 */
export const GROUP_MINUTES = 60;

/** How close two cases of one finding are (ms): a burst's window, or {@link GROUP_MINUTES}. */
export function groupGapMs(rule: RuleName, rules: ConductRules): number {
  return (BURST_RULES.has(rule) ? rules[rule].minutes : GROUP_MINUTES) * 60_000;
}

/** The rule as `/conduct show` says it. */
export function describeRule(rule: RuleName, setting: RuleSetting): string {
  const state = setting.on ? 'on' : 'off';
  switch (rule) {
    case 'off-shift':
      return `\`off-shift\` (${state}): a case by a moderator not on shift at that minute, where the server uses shifts`;
    case 'bans':
      return `\`bans\` (${state}): ${setting.count} bans or kicks by one moderator within ${setting.minutes} min`;
    case 'voids':
      return `\`voids\` (${state}): ${setting.count} cases voided by one member within ${setting.minutes} min`;
    case 'staff-target':
      return `\`staff-target\` (${state}): a case against a member who has clocked in as staff`;
    case 'sole-staff':
      return `\`sole-staff\` (${state}): a ban while its moderator was the only staff on shift`;
  }
}
