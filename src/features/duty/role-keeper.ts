import { DiscordAPIError, RESTJSONErrorCodes, Routes, type REST } from 'discord.js';

import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { Timers } from '../../base/timers.js';
import { describeDiscordError } from '../../discord/posting/classify-discord-error.js';
import type { Job } from '../feature.js';
import type { RecordQueries } from '../record/index.js';
import { nextNeverEndedAt, SHIFT_NEVER_ENDED_AFTER_MS, splitOpenShifts } from './board-render.js';
import type { DutyStore, RoleHolder } from './store/duty-store.js';

/** What /duty role's role is for, in the words of a refusal (src/discord/role-grant-rules.ts). */
export const ON_DUTY_ROLE = 'on-duty role';

/**
 * How far back the first look at a guild (after a start) seeks members whose shift ended: a day. The bot keeps
 * whom it gave the role to (`duty_role_holder`); this finds those a version that kept nothing gave it to.
 */
const FIRST_LOOK_BACK_MS = 24 * 60 * 60 * 1000;
/** A role Discord refused (or Discord down, or a role refused to give) is looked at again this much later. */
const RETRY_AFTER_MS = 60_000;

/** Why a guild's on-duty role is no longer given: what its health alert says. */
export interface RoleRefusal {
  roleId: string;
  /** The refusal in plain words (src/discord/role-grant-rules.ts). */
  reason: string;
}

export interface RoleKeeperDeps {
  duty: Pick<DutyStore, 'settingsOf' | 'listConfigured' | 'roleHoldersOf' | 'noteRoleHolder' | 'forgetRoleHolder'>;
  record: Pick<RecordQueries, 'openShifts' | 'membersOffShift'>;
  /** discord.js's REST client: it queues per route and waits out 429s by itself. */
  rest: Pick<REST, 'put' | 'delete'>;
  /**
   * Whether the bot may give the role now, for the member who chose it (null: not known): null, or why not. Asked
   * at every look that may give the role, from what Discord says then (src/discord/check-role-grant.ts).
   */
  refusalOf(guildId: string, roleId: string, chosenBy: string | null): Promise<string | null>;
  /** The guild's role refused (a health alert opened or brought up to date), or given again (null: resolved). */
  report(guildId: string, refusal: RoleRefusal | null): Promise<void>;
  timers: Timers;
  clock: Clock;
  logger: Logger;
}

interface GuildRoles {
  dirty: boolean;
  running: boolean;
  /** This process looked at the guild once already (the first look also seeks roles given before holders were kept). */
  looked: boolean;
  /** What this process last reported: a refusal (its role and reason), '' for none, undefined before the first. */
  reported: string | undefined;
  /**
   * Reconciles again without a shift event: when the longest shift passes the "never ended" limit (its member
   * loses the role), or to retry what Discord refused.
   */
  later: unknown;
}

/**
 * Gives the guild's on-duty role (/duty role) to the members on shift and takes it from those whose shift
 * ended, by reconciliation with the record rather than event by event: told that a guild's shifts changed, it
 * reads who is on shift now and whom the bot gave the role to (the store's holders, noted before each request to
 * Discord), and changes only what differs. A redelivered or late event therefore never leaves a wrong role, and a
 * restart, another process taking over or a changed /duty role takes the role from whoever the bot gave it to.
 * Before giving, it asks whether the role may still be given (no dangerous permission, below the bot's highest
 * role, and one its chooser could give): if not, nobody is given it, those who were lose it, and the guild's
 * health alert says why. One guild is reconciled at a time; changes meanwhile are coalesced into the next pass.
 * A role Discord refuses is logged and tried again at the next change, or a minute later.
 */
export class RoleKeeper implements Job {
  private readonly guilds = new Map<string, GuildRoles>();
  private readonly running = new Set<Promise<void>>();
  private stopped = true;

  constructor(private readonly deps: RoleKeeperDeps) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.changedAll().catch((error: unknown) =>
      this.deps.logger.warn({ err: { message: describeDiscordError(error) } }, 'duty roles not listed'),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const guild of this.guilds.values()) this.deps.timers.clearTimeout(guild.later);
    await this.idle();
  }

  /** The guild's shifts (or its /duty role) changed: its role is reconciled soon. */
  changed(guildId: string): void {
    let guild = this.guilds.get(guildId);
    if (!guild) {
      guild = { dirty: false, running: false, looked: false, reported: undefined, later: undefined };
      this.guilds.set(guildId, guild);
    }
    guild.dirty = true;
    this.run(guildId, guild);
  }

  /**
   * A role of the guild changed in Discord (its permissions, its place): a guild this process keeps a role for is
   * reconciled, so a role that gained a dangerous permission is taken back now rather than at the next shift.
   */
  roleUpdated(guildId: string): void {
    if (this.guilds.has(guildId)) this.changed(guildId);
  }

  /** The bot left the guild: nothing of it is kept (its roles went with it; the store forgets its holders). */
  forget(guildId: string): void {
    this.deps.timers.clearTimeout(this.guilds.get(guildId)?.later);
    this.guilds.delete(guildId);
  }

  /** Resolves when no reconciliation is under way (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private async changedAll(): Promise<void> {
    // Guilds with a role, and those whose role was turned off with members still to take it from.
    for (const settings of await this.deps.duty.listConfigured()) this.changed(settings.guildId);
  }

  private run(guildId: string, guild: GuildRoles): void {
    if (this.stopped || guild.running || !guild.dirty) return;
    guild.running = true;
    guild.dirty = false;
    const done = this.reconcile(guildId, guild)
      .catch((error: unknown) => {
        this.deps.logger.warn(
          { guildId, err: { message: describeDiscordError(error) } },
          'the on-duty role could not be reconciled; tried again at the next change',
        );
        return this.deps.clock() + RETRY_AFTER_MS;
      })
      .then((next) => this.reconcileAt(guildId, guild, next))
      .finally(() => {
        guild.running = false;
        this.running.delete(done);
        this.run(guildId, guild);
      });
    this.running.add(done);
  }

  private reconcileAt(guildId: string, guild: GuildRoles, at: number | undefined): void {
    this.deps.timers.clearTimeout(guild.later);
    guild.later =
      at === undefined || this.stopped
        ? undefined
        : this.deps.timers.setTimeout(() => this.changed(guildId), Math.max(0, at - this.deps.clock()));
  }

  /** Reconciles the guild's role; when to look again without a shift event, if ever. */
  private async reconcile(guildId: string, guild: GuildRoles): Promise<number | undefined> {
    const { roleId, roleSetBy } = await this.deps.duty.settingsOf(guildId);
    const holders = await this.deps.duty.roleHoldersOf(guildId);
    const firstLook = !guild.looked;
    guild.looked = true;
    // The role was changed or turned off: the members the bot gave an old one lose it.
    const old = holders.filter((held) => held.roleId !== roleId);
    let done = await this.takeAll(guildId, old, 'the on-duty role was changed (/duty role)');
    if (roleId === null) {
      await this.report(guildId, guild, null);
      return done ? undefined : this.deps.clock() + RETRY_AFTER_MS;
    }
    const now = this.deps.clock();
    const { onDuty, neverEnded } = splitOpenShifts(await this.deps.record.openShifts(guildId), now);
    const should = new Set(onDuty.flatMap((shift) => (shift.memberId === null ? [] : [shift.memberId])));
    const current = holders.filter((held) => held.roleId === roleId);
    const stale = new Set(current.map((held) => held.memberId).filter((memberId) => !should.has(memberId)));
    if (firstLook) {
      for (const memberId of await this.endedBeforeHoldersWereKept(guildId, neverEnded, now)) {
        if (!should.has(memberId)) stale.add(memberId);
      }
    }
    const ended = [...stale].map((memberId) => ({ memberId, roleId }));
    done = (await this.takeAll(guildId, ended, 'shift ended (/duty role)')) && done;

    const refusal = await this.deps.refusalOf(guildId, roleId, roleSetBy);
    await this.report(guildId, guild, refusal === null ? null : { roleId, reason: refusal });
    if (refusal !== null) {
      // Nobody is given it, and whoever the bot gave it to loses it: the bot is not why anyone holds it now.
      const given = current.filter((held) => should.has(held.memberId));
      await this.takeAll(guildId, given, 'the on-duty role can no longer be given (/duty role)');
      return now + RETRY_AFTER_MS;
    }
    // Given and confirmed: nothing to do. Noted but never confirmed (no answer came): asked again.
    const confirmed = new Set(current.filter((held) => held.givenAt !== null).map((held) => held.memberId));
    for (const memberId of should) {
      if (!confirmed.has(memberId)) done = (await this.give(guildId, memberId, roleId)) && done;
    }
    const times = [nextNeverEndedAt(onDuty), done ? undefined : now + RETRY_AFTER_MS];
    const next = times.filter((at): at is number => at !== undefined);
    return next.length === 0 ? undefined : Math.min(...next);
  }

  /** Takes each role from its member, one at a time; true when every one was taken (or was gone). */
  private async takeAll(
    guildId: string,
    held: ReadonlyArray<Pick<RoleHolder, 'memberId' | 'roleId'>>,
    reason: string,
  ): Promise<boolean> {
    let done = true;
    for (const { memberId, roleId } of held) done = (await this.take(guildId, memberId, roleId, reason)) && done;
    return done;
  }

  /**
   * The members whose shift ended in the last day, or was open past the "never ended" limit: a version of the bot
   * that did not keep its holders may have given them the role.
   */
  private async endedBeforeHoldersWereKept(
    guildId: string,
    neverEnded: ReadonlyArray<{ memberId: string | null }>,
    now: number,
  ): Promise<string[]> {
    const ended = await this.deps.record.membersOffShift(
      guildId,
      now - FIRST_LOOK_BACK_MS - SHIFT_NEVER_ENDED_AFTER_MS,
      now - FIRST_LOOK_BACK_MS,
    );
    return [...ended, ...neverEnded.flatMap((shift) => (shift.memberId === null ? [] : [shift.memberId]))];
  }

  /** Reports the guild's refusal, or its end, once per change (a guild looked at every minute reports once). */
  private async report(guildId: string, guild: GuildRoles, refusal: RoleRefusal | null): Promise<void> {
    const key = refusal === null ? '' : `${refusal.roleId}:${refusal.reason}`;
    if (guild.reported === key) return;
    await this.deps.report(guildId, refusal);
    guild.reported = key;
  }

  /**
   * True when the member holds the role now (or left the server). Noted before the request, so a crash or a lost
   * answer still leaves the member to take it from; confirmed after.
   */
  private async give(guildId: string, memberId: string, roleId: string): Promise<boolean> {
    const holder: RoleHolder = { memberId, roleId, givenAt: null };
    await this.deps.duty.noteRoleHolder(guildId, holder);
    try {
      await this.deps.rest.put(Routes.guildMemberRole(guildId, memberId, roleId), { reason: 'on shift (/duty role)' });
    } catch (error) {
      if (!this.gone(error)) return this.failed(error, guildId, memberId, 'given');
      await this.deps.duty.forgetRoleHolder(guildId, memberId, roleId);
      return true;
    }
    await this.deps.duty.noteRoleHolder(guildId, { ...holder, givenAt: this.deps.clock() });
    return true;
  }

  /** True when the member no longer holds the role (or left the server, or the role is gone): forgotten then. */
  private async take(guildId: string, memberId: string, roleId: string, reason: string): Promise<boolean> {
    try {
      await this.deps.rest.delete(Routes.guildMemberRole(guildId, memberId, roleId), { reason });
    } catch (error) {
      if (!this.gone(error)) return this.failed(error, guildId, memberId, 'taken back');
    }
    await this.deps.duty.forgetRoleHolder(guildId, memberId, roleId);
    return true;
  }

  /** A member who left, or a role deleted, has no role to change: done, not failed. */
  private gone(error: unknown): boolean {
    return (
      error instanceof DiscordAPIError &&
      (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownRole)
    );
  }

  private failed(error: unknown, guildId: string, memberId: string, what: string): boolean {
    this.deps.logger.warn(
      { guildId, memberId, err: { message: describeDiscordError(error) } },
      `the on-duty role could not be ${what}; tried again at the next change, or a minute later`,
    );
    return false;
  }
}
