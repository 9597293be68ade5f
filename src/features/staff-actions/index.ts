/** What other features and the shared commands may use of the staff actions (discipline and promotions). */
export { runStaffAction, type StaffActionCommandDeps } from './commands/run-staff-action.js';
export { STAFF_ACTION_NAMES, STAFF_ACTION_SUBCOMMANDS } from './commands/staff-subcommands.js';
export type { StaffActionsDeps } from './deps.js';
export type { TimelineEntry, TimelineSource } from './timeline.js';
