import type { DutyStore } from '../../store/duty-store.js';
import type { BotParts, Feature } from '../feature.js';
import { BoardUpdater } from './board-updater.js';
import { RoleKeeper } from './role-keeper.js';

/** What /duty is given. */
export interface DutyDeps {
  duty: Pick<DutyStore, 'settingsOf' | 'setBoardChannel' | 'setRole'>;
  /** A guild's /duty choices changed: its board is redrawn (and its role given) soon. */
  dutyChanged(guildId: string): void;
}

export interface DutyTimings {
  /** The least time between two edits of one board (MIN_EDIT_GAP_MS). */
  minEditGapMs?: number;
  retryAfterMs?: number;
}

/** The duty feature, with what the record feature tells it (src/features/index.ts wires the two). */
export interface DutyFeature extends Feature<DutyDeps> {
  /** The record's writer merged shift changes of these guilds: their boards are redrawn. */
  shiftsChanged(guildIds: readonly string[]): void;
  /** The board updater, for tests and the benchmark. */
  board: BoardUpdater;
  roles: RoleKeeper;
}

/**
 * Live duty: each guild's on-duty board (one message listing the staff on shift now, kept up to date as the
 * record's writer merges shift changes) and on-duty role (given to the members on shift, taken back when their
 * shift ends). Both read who is on shift from the community record.
 */
export function createDutyFeature(parts: BotParts, timings: DutyTimings = {}): DutyFeature {
  const { duty, community } = parts.store;
  const board = new BoardUpdater({
    duty,
    record: community,
    poster: parts.poster,
    timers: parts.timers,
    clock: parts.clock,
    logger: parts.logger,
    minEditGapMs: timings.minEditGapMs,
    retryAfterMs: timings.retryAfterMs,
  });
  const roles = new RoleKeeper({
    duty,
    record: community,
    rest: parts.discord.rest,
    timers: parts.timers,
    clock: parts.clock,
    logger: parts.logger,
  });
  const changed = (guildId: string) => {
    board.changed(guildId);
    roles.changed(guildId);
  };
  return {
    deps: { duty, dutyChanged: changed },
    jobs: [board, roles],
    board,
    roles,
    shiftsChanged(guildIds) {
      for (const guildId of guildIds) changed(guildId);
    },
    // What is kept in memory per guild goes with it (its row goes with the store's forgetting).
    onGuildRemoved: (guildId) => {
      board.forget(guildId);
      roles.forget(guildId);
      return Promise.resolve();
    },
  };
}
