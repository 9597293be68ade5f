import type { Interactions } from '../../../discord/command.js';
import { alertButton } from './alert-buttons.js';
import { alertsCommand } from './alerts.js';
import type { HealthCommandDeps } from './command-deps.js';
import { heldButton } from './held.js';

/** The health feature's slash command (/alerts), its alerts' buttons and the held list's (/feed held). */
export const healthInteractions: Interactions<HealthCommandDeps> = {
  commands: [alertsCommand],
  buttons: [alertButton, heldButton],
};
