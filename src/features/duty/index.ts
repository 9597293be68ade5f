/** What other features may use of the duty feature. */
export { SHIFT_NEVER_ENDED_AFTER_MS, splitOpenShifts } from './board-render.js';
export type { CoverageShortfall } from './coverage-guard.js';
export { ON_DUTY_ROLE, type RoleRefusal } from './role-keeper.js';
