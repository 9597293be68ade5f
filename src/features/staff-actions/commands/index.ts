import type { CommandBasics, Interactions } from '../../../discord/command.js';
import type { StaffActionsDeps } from '../deps.js';

/**
 * The staff actions answer no command of their own: their subcommands are parts of the shared /staff
 * (src/commands/staff.ts), lent by the feature's index.ts.
 */
export const staffActionsInteractions: Interactions<CommandBasics & StaffActionsDeps> = {};
