import type { Clock } from '../../base/clock.js';
import { CoalescedRuns } from '../../base/coalesced-runs.js';
import type { Logger } from '../../base/logger.js';
import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { FoundMessage } from '../../discord/posting/find-post.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import { postWrittenDown, type EarlierPostDeps } from '../../discord/posting/post-once.js';
import type { Poster } from '../../discord/posting/poster.js';
import type { Job } from '../feature.js';
import type { LeaveView } from '../leave/index.js';
import type { RecordQueries } from '../record/index.js';
import { BOARD_FOOTER, nextNeverEndedAt, renderBoard, splitOpenShifts } from './board-render.js';
import type { DutyStore } from './store/duty-store.js';

/**
 * The least time between two edits of one guild's board: Discord lets a bot edit about 5 messages per 5 s in a
 * channel, so one edit per 1.2 s stays under it with room for the channel's other messages. Changes that come
 * meanwhile are coalesced into the next edit, which shows the state at that moment: 200 shift changes in a
 * minute make at most 50 edits, and the last shows the last state.
 */
export const MIN_EDIT_GAP_MS = 1_200;
/**
 * After a failed edit or post (Discord down, a permission taken away): when the board is tried again, at first;
 * the wait doubles with each failure in a row, up to half an hour (coalesced-runs.ts).
 */
const RETRY_AFTER_MS = 30_000;

export interface BoardUpdaterDeps extends EarlierPostDeps {
  duty: Pick<DutyStore, 'settingsOf' | 'listConfigured' | 'setBoardMessage' | 'askBoardPost'>;
  record: Pick<RecordQueries, 'openShifts'>;
  /** Who is on approved leave now (shown apart on the board); none: nobody. */
  leave?: Pick<LeaveView, 'onLeaveAt'> | undefined;
  poster: Poster;
  timers: Timers;
  clock: Clock;
  logger: Logger;
  minEditGapMs?: number | undefined;
  retryAfterMs?: number | undefined;
  /** Told each time a guild's board failed and the guild backed off (the metrics). */
  onBackoff?: (() => void) | undefined;
}

/** What this process knows of one guild's board. */
interface GuildBoard {
  /** What the board's message shows (its time left out), as this process last posted or edited it. */
  shown: { messageId: string; content: string } | undefined;
  /**
   * Redraws the board when its longest shift passes the "never ended" limit and moves apart: the one change of
   * a board without a shift event (the relative times count themselves up in Discord).
   */
  aging: unknown;
}

/**
 * Keeps each guild's on-duty board message: told that a guild's shifts changed, it edits the board, one edit per
 * guild at a time, at most one per {@link MIN_EDIT_GAP_MS}, coalescing what came meanwhile. A board whose message
 * was deleted (the edit answers 404 Unknown Message) is posted anew and its new id stored; any other failure is
 * logged and the guild's board backs off (tried again after 30 s, doubling with each failure), the other guilds'
 * boards going on. A post is written down before it is sent (when, in the store; its nonce follows from the guild,
 * the channel and the message before), so a try later than Discord keeps nonces looks for the board an earlier try
 * posted, whose answer was lost, before posting it. What it shows is read from the record each time, so an edit
 * that comes late, or twice, still shows the state at that moment.
 */
export class BoardUpdater implements Job {
  private readonly boards = new Map<string, GuildBoard>();
  private readonly runs: CoalescedRuns;

  constructor(private readonly deps: BoardUpdaterDeps) {
    this.runs = new CoalescedRuns({
      timers: deps.timers,
      clock: deps.clock,
      run: (guildId) => this.update(guildId, this.boardOf(guildId)),
      onError: (guildId, error, { failures, retryAt }) => {
        deps.logger.warn(
          { guildId, failures, retryAt: new Date(retryAt).toISOString(), err: toLoggableError(error) },
          'the on-duty board could not be updated; tried again later (this guild backs off, the others go on)',
        );
        deps.onBackoff?.();
      },
      minGapMs: deps.minEditGapMs ?? MIN_EDIT_GAP_MS,
      retryAfterMs: deps.retryAfterMs ?? RETRY_AFTER_MS,
    });
  }

  async start(): Promise<void> {
    this.runs.start();
    // What changed while the bot was down (or while another process held the gateway) is shown at once.
    await this.changedAll().catch((error: unknown) =>
      this.deps.logger.warn({ err: toLoggableError(error) }, 'the duty boards could not be listed'),
    );
  }

  async stop(): Promise<void> {
    for (const board of this.boards.values()) this.deps.timers.clearTimeout(board.aging);
    await this.runs.stop();
  }

  /** The guild's shifts (or its board's channel) changed: its board is edited soon. */
  changed(guildId: string): void {
    this.runs.changed(guildId);
  }

  /** The bot left the guild (or its board is off): nothing of it is kept. */
  forget(guildId: string): void {
    this.runs.forget(guildId);
    const board = this.boards.get(guildId);
    if (!board) return;
    this.deps.timers.clearTimeout(board.aging);
    this.boards.delete(guildId);
  }

  /** Resolves when no edit is under way or due (tests and the benchmark). */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  private async changedAll(): Promise<void> {
    for (const settings of await this.deps.duty.listConfigured()) {
      if (settings.boardChannelId !== null) this.changed(settings.guildId);
    }
  }

  private boardOf(guildId: string): GuildBoard {
    let board = this.boards.get(guildId);
    if (!board) {
      board = { shown: undefined, aging: undefined };
      this.boards.set(guildId, board);
    }
    return board;
  }

  /**
   * Edits the guild's board to show who is on shift now, or posts it where it has no message (any more). Nothing
   * is sent when the board already shows exactly that (a redraw after a restart, or of a board that did not change).
   * True when sent.
   */
  private async update(guildId: string, board: GuildBoard): Promise<boolean> {
    const settings = await this.deps.duty.settingsOf(guildId);
    const channelId = settings.boardChannelId;
    if (channelId === null) {
      this.forget(guildId);
      return false;
    }
    const now = this.deps.clock();
    const shifts = await this.deps.record.openShifts(guildId);
    this.ageAt(guildId, board, nextNeverEndedAt(splitOpenShifts(shifts, now).onDuty));
    const onLeave = (await this.deps.leave?.onLeaveAt(guildId, now)) ?? [];
    const body = renderBoard(shifts, now, onLeave);
    const content = JSON.stringify(body.embeds.map(({ timestamp: _time, ...rest }) => rest));
    const previous = settings.boardMessageId;
    if (previous !== null && board.shown?.messageId === previous && board.shown.content === content) return false;
    if (previous !== null && (await this.deps.poster.edit(channelId, previous, body)) === 'edited') {
      board.shown = { messageId: previous, content };
      return true;
    }
    // The same message (a first board, or the one after `previous`) always has the same nonce: a post retried
    // after a lost answer lands on the message already made.
    const nonce = makeCardNonce(['duty-board', guildId, channelId, previous ?? 'first']);
    const writtenAt = await this.deps.duty.askBoardPost(guildId, channelId, now);
    // Moved to another channel meanwhile: the next run posts it there.
    if (writtenAt === undefined) return false;
    const { messageId: posted, found } = await postWrittenDown(
      this.deps,
      channelId,
      { ...body, embeds: body.embeds },
      { nonce, writtenAt },
      // Its count may change from try to try: a board is known by its footer.
      { matches: showsBoard },
    );
    if (previous !== null) this.deps.logger.info({ guildId, channelId }, 'the on-duty board was deleted: posted anew');
    await this.deps.duty.setBoardMessage(guildId, channelId, posted);
    if (found) {
      // It shows what the earlier try drew: edited to the state now by the next run.
      board.shown = undefined;
      this.changed(guildId);
    } else {
      board.shown = { messageId: posted, content };
    }
    return true;
  }

  private ageAt(guildId: string, board: GuildBoard, at: number | undefined): void {
    this.deps.timers.clearTimeout(board.aging);
    board.aging =
      at === undefined
        ? undefined
        : this.deps.timers.setTimeout(() => this.changed(guildId), Math.max(0, at - this.deps.clock()));
  }
}

/** Whether a message is an on-duty board (the bot's own, in the board's channel: what the finder reads). */
function showsBoard(message: FoundMessage): boolean {
  return message.embeds[0]?.footer?.text === BOARD_FOOTER;
}
