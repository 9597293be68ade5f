import { DiscordAPIError, RESTJSONErrorCodes, Routes, type REST } from 'discord.js';

import { backoffDelay, type BackoffPolicy } from '../../base/backoff.js';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { PostFinder } from '../../discord/posting/find-post.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import { postWrittenDown } from '../../discord/posting/post-once.js';
import type { Poster } from '../../discord/posting/poster.js';
import type { Job } from '../feature.js';
import { renderLeaveCard } from './leave-card.js';
import type { LeaveRequest, LeaveStore, LeaveWork } from './store/leave-store.js';

/** What the leave role is for, in the words of a refusal (src/discord/role-grant-rules.ts). */
export const LEAVE_ROLE = 'leave role';

/** Requests worked on per pass: a guild with many due never holds the others up for long. */
const BATCH = 50;
/** The longest sleep between passes: a clock that jumped, or a row written by another process, is seen by then. */
const MAX_SLEEP_MS = 60 * 60 * 1000;
const BACKOFF: BackoffPolicy = { baseMs: 5_000, capMs: 30 * 60 * 1000 };

export interface LeaveJobDeps {
  leave: Pick<
    LeaveStore,
    | 'settingsOf'
    | 'due'
    | 'nextDue'
    | 'moveOn'
    | 'backOff'
    | 'askCard'
    | 'requestOf'
    | 'setCard'
    | 'noteRoleHolder'
    | 'roleHolderOf'
    | 'forgetRoleHolder'
  >;
  poster: Poster;
  findPosted?: PostFinder | undefined;
  nonceWindowMs?: number | undefined;
  /** discord.js's REST client: it queues per route and waits out 429s by itself. */
  rest: Pick<REST, 'put' | 'delete'>;
  /**
   * Whether the bot may give the role now for each of `managers` (who chose it, who approved the leave): null, or
   * why not. Asked at each grant, from what Discord says then (src/discord/check-role-grant.ts).
   */
  refusalOf(guildId: string, roleId: string, managers: readonly string[]): Promise<string | null>;
  /** A leave started or ended in the guild: the duty board and the coverage guard look again. */
  onLeaveChanged(guildId: string): void;
  timers: Timers;
  clock: Clock;
  logger: Logger;
}

/**
 * Does what each request still needs, when it is due: posts its card, gives the leave role at the start of an
 * approved leave and takes it back at its end. What is due is stored with the request (`work`, `try_at`) and read
 * by index, so a restart picks up where the last process stopped, and the job sleeps until the next due time
 * (never scanning the requests). A request whose work fails backs off on its own; the rest go on.
 */
export class LeaveJob implements Job {
  private timer: unknown;
  private stopped = true;
  private passing: Promise<void> | undefined;
  private again = false;

  constructor(private readonly deps: LeaveJobDeps) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.deps.timers.clearTimeout(this.timer);
    await this.passing;
  }

  /** Something became due (a request stored, approved, ended early): a pass runs now. */
  wake(): void {
    if (this.stopped) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    this.deps.timers.clearTimeout(this.timer);
    this.passing = this.pass().finally(() => {
      this.passing = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Resolves when no pass is under way (tests). */
  async idle(): Promise<void> {
    while (this.passing) await this.passing;
  }

  private async pass(): Promise<void> {
    try {
      let due: LeaveRequest[];
      do {
        due = await this.deps.leave.due(this.deps.clock(), BATCH);
        for (const request of due) {
          if (this.stopped) return;
          await this.work(request);
        }
      } while (due.length === BATCH && !this.stopped);
      const next = await this.deps.leave.nextDue();
      this.sleepUntil(next);
    } catch (error) {
      // The store failed: the pass is tried again later.
      this.deps.logger.warn({ err: toLoggableError(error) }, 'the leave job could not read what is due');
      this.sleepUntil(this.deps.clock() + BACKOFF.baseMs);
    }
  }

  private sleepUntil(at: number | undefined): void {
    if (this.stopped) return;
    const wait = Math.min(MAX_SLEEP_MS, Math.max(0, (at ?? Infinity) - this.deps.clock()));
    this.deps.timers.clearTimeout(this.timer);
    this.timer = this.deps.timers.setTimeout(() => this.wake(), wait);
  }

  private async work(request: LeaveRequest): Promise<void> {
    const work = request.work;
    if (work === null) return;
    try {
      const next = await this.do(work, request);
      await this.deps.leave.moveOn(request.guildId, request.number, work, next.work, next.at);
      if (work !== 'card') this.deps.onLeaveChanged(request.guildId);
    } catch (error) {
      const tryAt = this.deps.clock() + backoffDelay(request.failures + 1, BACKOFF);
      this.deps.logger.warn(
        { guildId: request.guildId, number: request.number, work, err: toLoggableError(error) },
        'a leave request’s work failed; tried again later',
      );
      await this.deps.leave.backOff(request.guildId, request.number, work, tryAt).catch(() => undefined);
    }
  }

  private async do(work: LeaveWork, request: LeaveRequest): Promise<{ work: LeaveWork | null; at: number | null }> {
    switch (work) {
      case 'card':
        await this.postCard(request);
        return { work: null, at: null };
      case 'start':
        await this.giveRole(request);
        return { work: 'end', at: request.endsAt };
      case 'end':
        await this.takeRole(request);
        return { work: null, at: null };
    }
  }

  private async postCard(request: LeaveRequest): Promise<void> {
    const channelId = request.card?.channelId ?? (await this.deps.leave.settingsOf(request.guildId)).channelId;
    if (channelId === null) return;
    await this.deps.leave.askCard(request.guildId, request.number, channelId, this.deps.clock());
    const asked = await this.deps.leave.requestOf(request.guildId, request.number);
    const body = renderLeaveCard(asked ?? request, this.deps.clock());
    const { messageId } = await postWrittenDown(
      this.deps,
      channelId,
      body,
      {
        nonce: makeCardNonce(['leave-card', request.guildId, String(request.number)]),
        writtenAt: asked?.card?.askedAt ?? undefined,
      },
      // Its state may differ from try to try: a card is known by its footer.
      { matches: (message) => message.embeds[0]?.footer?.text === body.embeds[0]?.footer?.text },
    );
    await this.deps.leave.setCard(request.guildId, request.number, channelId, messageId);
  }

  /** The leave role, if one is set and may still be given for whoever chose it and approved the leave. */
  private async giveRole(request: LeaveRequest): Promise<void> {
    const { roleId, roleSetBy } = await this.deps.leave.settingsOf(request.guildId);
    if (roleId === null) return;
    const managers = [roleSetBy, request.decidedBy].filter((id): id is string => id !== null);
    const refusal = await this.deps.refusalOf(request.guildId, roleId, managers);
    if (refusal !== null) {
      // The leave stands (the member is excused); only the role is not given.
      this.deps.logger.warn(
        { guildId: request.guildId, number: request.number, refusal },
        'the leave role was not given',
      );
      return;
    }
    const holder = { number: request.number, memberId: request.memberId, roleId, givenAt: null };
    // Kept before Discord is asked: a restart takes it back from exactly them.
    await this.deps.leave.noteRoleHolder(request.guildId, holder);
    try {
      await this.deps.rest.put(Routes.guildMemberRole(request.guildId, request.memberId, roleId), {
        reason: `leave request #${request.number} (/leave)`,
      });
    } catch (error) {
      if (!isGone(error)) throw error;
      await this.deps.leave.forgetRoleHolder(request.guildId, request.number);
      return;
    }
    await this.deps.leave.noteRoleHolder(request.guildId, { ...holder, givenAt: this.deps.clock() });
  }

  private async takeRole(request: LeaveRequest): Promise<void> {
    const holder = await this.deps.leave.roleHolderOf(request.guildId, request.number);
    if (!holder) return;
    try {
      await this.deps.rest.delete(Routes.guildMemberRole(request.guildId, holder.memberId, holder.roleId), {
        reason: `leave request #${request.number} ended (/leave)`,
      });
    } catch (error) {
      if (!isGone(error)) throw error;
    }
    await this.deps.leave.forgetRoleHolder(request.guildId, request.number);
  }
}

/** A member who left, or a role deleted, has no role to change: done, not failed. */
function isGone(error: unknown): boolean {
  return (
    error instanceof DiscordAPIError &&
    (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownRole)
  );
}
