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
 *
 * Their names and settings live beside the store, which keeps them (`conduct_guild.rules`); what they mean to the
 * judge and to `/conduct show` is `../rules.ts`.
 */
export const RULE_NAMES = ['off-shift', 'bans', 'voids', 'staff-target', 'sole-staff'] as const;
export type RuleName = (typeof RULE_NAMES)[number];

/** One rule of a guild: on or off, and (a burst) how many within how many minutes. */
export interface RuleSetting {
  on: boolean;
  count: number;
  minutes: number;
}

export type ConductRules = Readonly<Record<RuleName, RuleSetting>>;

/** A burst's count and window when an admin gave none: 5 within 10 minutes. */
export const DEFAULT_BURST = { count: 5, minutes: 10 } as const;

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
