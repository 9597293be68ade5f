import type { CommandBasics, Interactions } from '../../../discord/command.js';
import type { StaffActivityDeps } from '../../leave/index.js';
import type { RecordDeps } from '../feature.js';
import { caseCommand, casePageButton } from './case.js';
import { exportCommand } from './export.js';
import { leaderboardCommand } from './leaderboard.js';
import { recordCommand } from './record.js';
import { staffCommand } from './staff.js';

/**
 * The community record's slash commands (/record, /case, /staff, /leaderboard, /export) and the pages of a
 * /case lookup.
 */
export const recordInteractions: Interactions<CommandBasics & RecordDeps & StaffActivityDeps> = {
  commands: [recordCommand, caseCommand, staffCommand, leaderboardCommand, exportCommand],
  buttons: [casePageButton],
};
