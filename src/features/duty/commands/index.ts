import type { Interactions } from '../../../discord/command.js';
import { dutyCommand, type DutyCommandDeps } from './duty.js';

/** The duty feature's slash command: /duty. */
export const dutyInteractions: Interactions<DutyCommandDeps> = { commands: [dutyCommand] };
