import type { CommandBasics, Interactions } from '../../../discord/command.js';
import type { RecordDeps } from '../feature.js';
import { caseCommand, casePageButton } from './case.js';
import { exportCommand } from './export.js';
import { leaderboardCommand } from './leaderboard.js';
import { forgetButton, recordCommand } from './record.js';

/**
 * The community record's slash commands (/record, /case, /leaderboard, /export) and the pages of a /case lookup;
 * its part of the shared /staff (stats, response) is lent by its index.ts.
 */
export const recordInteractions: Interactions<CommandBasics & RecordDeps> = {
  commands: [recordCommand, caseCommand, leaderboardCommand, exportCommand],
  buttons: [casePageButton, forgetButton],
};
