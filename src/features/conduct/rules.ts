/**
 * The conduct guard's rules: what staff do that a server's chosen role is told of. Each is on or off per guild
 * (`/conduct set`); the bursts have a count and a window too.
 *
 * - `off-shift`: a case by a moderator who was not on shift at that minute (only where the server uses shifts: a
 *   shift began in the 30 days up to the case);
 * - `bans`: a burst of bans or kicks by one moderator, `count` within `minutes`;
 * - `voids`: a burst of voids by one member, `count` within `minutes`;
 * - `staff-target`: a case against a staff member (its target's Roblox id clocked in as staff by then);
 * - `sole-staff`: a ban while its moderator was the only staff on shift (off unless turned on).
 */
export const RULE_NAMES = ['off-shift', 'bans', 'voids', 'staff-target', 'sole-staff'] as const;
export type RuleName = (typeof RULE_NAMES)[number];

/** The rules with a count and a window. */
export const BURST_RULES: ReadonlySet<RuleName> = new Set<RuleName>(['bans', 'voids']);

/** One rule of a guild: on or off, and (a burst) how many within how many minutes. */
export interface RuleSetting {
  on: boolean;
  count: number;
  minutes: number;
}

export type ConductRules = Readonly<Record<RuleName, RuleSetting>>;

/** A burst's count and window when an admin gave none: 5 within 10 minutes. */
export const DEFAULT_BURST = { count: 5, minutes: 10 } as const;
/** The least and most a burst may count, and its longest window (a day). */
export const BURST_COUNT_RANGE = { min: 2, max: 100 } as const;
export const BURST_MINUTES_RANGE = { min: 1, max: 1440 } as const;

/**
 * Findings of a rule that is not a burst are grouped when their cases come within this of each other: a moderator
 * off shift for an hour gets one alert, not one per case.
 */
export const GROUP_MINUTES = 60;

const DEFAULT_ON: Readonly<Record<RuleName, boolean>> = {
  'off-shift': true,
  bans: true,
  voids: true,
  'staff-target': true,
  'sole-staff': false,
};

/** Every rule as a guild has it before an admin changes any. */
export const DEFAULT_RULES: ConductRules = Object.fromEntries(
  RULE_NAMES.map((rule) => [rule, { on: DEFAULT_ON[rule], ...DEFAULT_BURST }]),
) as unknown as ConductRules;

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
