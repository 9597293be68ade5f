import type { Interactions } from '../../../discord/command.js';
import { conductAlertButton } from './alert-buttons.js';
import { conductCommand, type ConductCommandDeps } from './conduct.js';

/** The conduct guard's slash command (/conduct) and its alerts' buttons. */
export const conductInteractions: Interactions<ConductCommandDeps> = {
  commands: [conductCommand],
  buttons: [conductAlertButton],
};
