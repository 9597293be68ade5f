import type { Interactions } from '../../../discord/command.js';
import { approveButton, denyButton } from './leave-buttons.js';
import { leaveCommand, type LeaveCommandDeps } from './leave.js';

/** The leave feature's slash command (/leave) and its cards' Approve and Deny. */
export const leaveInteractions: Interactions<LeaveCommandDeps> = {
  commands: [leaveCommand],
  buttons: [approveButton, denyButton],
};
