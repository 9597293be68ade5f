import type { Client } from 'discord.js';

import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { PostFinder } from '../../discord/posting/find-post.js';
import type { Poster } from '../../discord/posting/poster.js';
import type { AuditLog } from '../audit/index.js';
import type { RecordQueries } from '../record/index.js';
import type { StaffActionsStore } from './store/staff-actions-store.js';
import type { TimelineSource } from './timeline.js';

/** What the staff actions' subcommands of /staff are given (beside the basics). */
export interface StaffActionsDeps {
  staffActions: StaffActionsStore;
  /** The community record's monthly figures of a member, for /staff history. */
  staffRecord: Pick<RecordQueries, 'memberMonths'>;
  /** What other features add to /staff history's timeline (leave). */
  timeline: readonly TimelineSource[];
  /** Where /staff history writes its lookup line (who looked whom up). */
  audit: Pick<AuditLog, 'append'>;
  poster: Poster;
  findPosted?: PostFinder | undefined;
  nonceWindowMs?: number | undefined;
}

/** What an action is given: the feature's deps and the basics every command has. */
export type StaffActionContext = StaffActionsDeps & { client: Client; clock: Clock; logger: Logger };
