import type { CommandBasics, Interactions } from '../../../discord/command.js';
import type { RecordDeps } from '../feature.js';
import { caseCommand, casePageButton } from './case.js';
import { evidenceShareButton } from './case/evidence.js';
import { exportCommand } from './export.js';
import { leaderboardCommand } from './leaderboard.js';
import { recordCommand } from './record.js';
import { staffCommand } from './staff.js';

/**
 * The community record's slash commands (/record, /case, /staff, /leaderboard, /export), the pages of a /case
 * lookup and the share button of a /case evidence pack.
 */
export const recordInteractions: Interactions<CommandBasics & RecordDeps> = {
  commands: [recordCommand, caseCommand, staffCommand, leaderboardCommand, exportCommand],
  buttons: [casePageButton, evidenceShareButton],
};
