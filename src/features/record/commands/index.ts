import type { CommandBasics, Interactions } from '../../../discord/command.js';
import type { RecordDeps } from '../feature.js';
import { caseCommand, casePageButton } from './case.js';
import { evidenceShareButton } from './case/evidence.js';
import { exportCommand } from './export.js';
import { leaderboardCommand } from './leaderboard.js';
import { forgetButton, recordCommand } from './record.js';

/**
 * The community record's slash commands (/record, /case, /leaderboard, /export), the pages of a /case lookup, the
 * confirmation of /record forget and the share button of a /case evidence pack; its part of the shared /staff
 * (stats, response) is lent by its index.ts.
 */
export const recordInteractions: Interactions<CommandBasics & RecordDeps> = {
  commands: [recordCommand, caseCommand, leaderboardCommand, exportCommand],
  buttons: [casePageButton, forgetButton, evidenceShareButton],
};
