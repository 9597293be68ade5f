import { Events, type Role } from 'discord.js';

import { checkRoleGrant } from '../../discord/check-role-grant.js';
import type { BotParts, Feature } from '../feature.js';
import { alertSettingsOn, type AlertSettingsStore } from '../health/index.js';
import { leaveOf } from '../leave/index.js';
import { recordOf } from '../record/index.js';
import { BoardUpdater } from './board-updater.js';
import { CoverageGuard, type CoverageShortfall } from './coverage-guard.js';
import { ON_DUTY_ROLE, RoleKeeper, type RoleRefusal } from './role-keeper.js';
import { dutyModule } from './store/duty-module.js';
import type { DutyStore } from './store/duty-store.js';

/** What /duty is given. */
export interface DutyDeps {
  duty: Pick<DutyStore, 'settingsOf' | 'setBoardChannel' | 'setRole' | 'coverageOf' | 'setMinimum'>;
  /** A guild's /duty choices changed: its board is redrawn, its role given and its coverage looked at, soon. */
  dutyChanged(guildId: string): void;
  /** Where health alerts go: /duty minimum says where its coverage alert is posted. */
  alertSettings: Pick<AlertSettingsStore, 'get'>;
}

export interface DutyTimings {
  /** The least time between two edits of one board (MIN_EDIT_GAP_MS). */
  minEditGapMs?: number;
  retryAfterMs?: number;
  /** The length of a minute for /duty minimum's `after` (tests shorten it). */
  minuteMs?: number;
}

/** What the duty feature tells other features (wired in src/features/index.ts). */
export interface DutyListeners {
  /**
   * A guild's coverage: its shortfall past its /duty minimum's wait (an alert to open or bring up to date), or
   * null (an alert of it, if open, is resolved).
   */
  onCoverage?: (guildId: string, shortfall: CoverageShortfall | null) => Promise<void>;
  /**
   * A guild's on-duty role: refused at a grant (a health alert to open or bring up to date: nobody is given it), or
   * null (given again, or turned off: an alert of it, if open, is resolved).
   */
  onRoleRefusal?: (guildId: string, refusal: RoleRefusal | null) => Promise<void>;
}

/** The duty feature, with what the record feature tells it (src/features/index.ts wires the two). */
export interface DutyFeature extends Feature<DutyDeps> {
  /** The record's writer merged shift changes of these guilds: their boards are redrawn. */
  shiftsChanged(guildIds: readonly string[]): void;
  /** The record's writer merged session changes of these guilds: their coverage is looked at. */
  sessionsChanged(guildIds: readonly string[]): void;
  /** The board updater, for tests and the benchmark. */
  board: BoardUpdater;
  roles: RoleKeeper;
  coverage: CoverageGuard;
}

/**
 * Live duty: each guild's on-duty board (one message listing the staff on shift now, kept up to date as the
 * record's writer merges shift changes), on-duty role (given to the members on shift, taken back when their
 * shift ends) and coverage guard (an alert while a session runs with fewer staff on shift than its minimum). All
 * read who is on shift from the community record.
 */
export function createDutyFeature(
  parts: BotParts,
  timings: DutyTimings = {},
  listeners: DutyListeners = {},
): DutyFeature {
  const duty = parts.store.of(dutyModule);
  const community = recordOf(parts.store);
  const leave = leaveOf(parts.store);
  const board = new BoardUpdater({
    duty,
    record: community,
    leave,
    poster: parts.poster,
    findPosted: parts.findPosted,
    nonceWindowMs: parts.nonceWindowMs,
    timers: parts.timers,
    clock: parts.clock,
    logger: parts.logger,
    minEditGapMs: timings.minEditGapMs,
    retryAfterMs: timings.retryAfterMs,
    onBackoff: () => parts.metrics.guildBackoff('duty_board'),
  });
  const roles = new RoleKeeper({
    duty,
    record: community,
    rest: parts.discord.rest,
    refusalOf: (guildId, roleId, chosenBy) =>
      checkRoleGrant(
        parts.discord,
        guildId,
        roleId,
        chosenBy === null ? null : { id: chosenBy, addressed: false },
        ON_DUTY_ROLE,
      ),
    report: listeners.onRoleRefusal ?? (() => Promise.resolve()),
    timers: parts.timers,
    clock: parts.clock,
    logger: parts.logger,
  });
  const coverage = new CoverageGuard({
    duty,
    record: community,
    leave,
    report: listeners.onCoverage ?? (() => Promise.resolve()),
    timers: parts.timers,
    clock: parts.clock,
    logger: parts.logger,
    minuteMs: timings.minuteMs,
    onBackoff: () => parts.metrics.guildBackoff('coverage'),
  });
  const changed = (guildId: string) => {
    board.changed(guildId);
    roles.changed(guildId);
    coverage.changed(guildId);
  };
  // Jobs run where the gateway is: its role updates tell the keeper of a role that changed under it.
  const roleUpdated = (_old: Role, role: Role) => roles.roleUpdated(role.guild.id);
  const roleWatch = {
    start: () => void parts.discord.on(Events.GuildRoleUpdate, roleUpdated),
    stop: () => {
      parts.discord.off(Events.GuildRoleUpdate, roleUpdated);
      return Promise.resolve();
    },
  };
  return {
    deps: { duty, dutyChanged: changed, alertSettings: alertSettingsOn(parts.store.documents) },
    jobs: [board, roles, coverage, roleWatch],
    board,
    roles,
    coverage,
    shiftsChanged(guildIds) {
      for (const guildId of guildIds) changed(guildId);
    },
    sessionsChanged(guildIds) {
      coverage.changedAll(guildIds);
    },
    // What is kept in memory per guild goes with it (its row goes with the store's forgetting).
    onGuildRemoved: (guildId) => {
      board.forget(guildId);
      roles.forget(guildId);
      return Promise.resolve();
    },
  };
}
