import { DiscordAPIError, Routes, type REST } from 'discord.js';

import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { Timers } from '../../base/timers.js';
import { describeDiscordError } from '../../discord/posting/classify-discord-error.js';
import type { DutyStore } from '../../store/duty-store.js';
import type { RecordQueries } from '../../store/record-queries.js';
import type { Job } from '../feature.js';
import { nextNeverEndedAt, SHIFT_NEVER_ENDED_AFTER_MS, splitOpenShifts } from './board-render.js';

/** Discord's "Unknown Member": the member left the server; there is no role to give or take. */
const UNKNOWN_MEMBER = 10007;
/**
 * How far back the first look at a guild (after a start, or a new role) seeks members whose shift ended: a day.
 * A shift that ended while the bot was down, or a role handed out by a process that stopped before it took it
 * back, is found and the role taken; shifts older than that are past any role this bot gave.
 */
const FIRST_LOOK_BACK_MS = 24 * 60 * 60 * 1000;
/** A role Discord refused (or Discord down) is tried again this much later, if no shift change comes first. */
const RETRY_AFTER_MS = 60_000;

export interface RoleKeeperDeps {
  duty: Pick<DutyStore, 'settingsOf' | 'listConfigured'>;
  record: Pick<RecordQueries, 'openShifts' | 'membersOffShift'>;
  /** discord.js's REST client: it queues per route and waits out 429s by itself. */
  rest: Pick<REST, 'put' | 'delete'>;
  timers: Timers;
  clock: Clock;
  logger: Logger;
}

interface GuildRoles {
  dirty: boolean;
  running: boolean;
  /** The role given, and the members this process knows hold it because of a shift. */
  applied: { roleId: string; holders: Set<string> } | undefined;
  /**
   * Reconciles again without a shift event: when the longest shift passes the "never ended" limit (its member
   * loses the role), or to retry what Discord refused.
   */
  later: unknown;
}

/**
 * Gives the guild's on-duty role (/duty role) to the members on shift and takes it from those whose shift
 * ended, by reconciliation with the record rather than event by event: told that a guild's shifts changed, it
 * reads who is on shift now and changes only what differs from what it last did. A redelivered or late event
 * therefore never leaves a wrong role, and after a restart the first look also takes the role from the members
 * whose shift ended in the last day (or was open past the "never ended" limit). One guild is reconciled at a
 * time; changes meanwhile are coalesced into the next pass. A role Discord refuses is logged and tried again at
 * the next change, or a minute later.
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
      guild = { dirty: false, running: false, applied: undefined, later: undefined };
      this.guilds.set(guildId, guild);
    }
    guild.dirty = true;
    this.run(guildId, guild);
  }

  /** The bot left the guild: nothing of it is kept (its roles went with it). */
  forget(guildId: string): void {
    this.deps.timers.clearTimeout(this.guilds.get(guildId)?.later);
    this.guilds.delete(guildId);
  }

  /** Resolves when no reconciliation is under way (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private async changedAll(): Promise<void> {
    for (const settings of await this.deps.duty.listConfigured()) {
      if (settings.roleId !== null || this.guilds.get(settings.guildId)?.applied) this.changed(settings.guildId);
    }
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
    const { roleId } = await this.deps.duty.settingsOf(guildId);
    if (guild.applied && guild.applied.roleId !== roleId) {
      // The role was changed or turned off: the members this process gave the old one lose it.
      const { roleId: old, holders } = guild.applied;
      for (const memberId of [...holders]) {
        if (await this.take(guildId, memberId, old, 'the on-duty role was changed (/duty role)'))
          holders.delete(memberId);
      }
      if (holders.size > 0) return this.deps.clock() + RETRY_AFTER_MS;
      guild.applied = undefined;
    }
    if (roleId === null) return undefined;
    const now = this.deps.clock();
    const { onDuty, neverEnded } = splitOpenShifts(await this.deps.record.openShifts(guildId), now);
    const should = new Set(onDuty.flatMap((shift) => (shift.memberId === null ? [] : [shift.memberId])));
    let applied = guild.applied;
    let stale: string[];
    if (!applied) {
      applied = { roleId, holders: new Set() };
      guild.applied = applied;
      const ended = await this.deps.record.membersOffShift(
        guildId,
        now - FIRST_LOOK_BACK_MS - SHIFT_NEVER_ENDED_AFTER_MS,
        now - FIRST_LOOK_BACK_MS,
      );
      const neverEndedMembers = neverEnded.flatMap((shift) => (shift.memberId === null ? [] : [shift.memberId]));
      stale = [...new Set([...ended, ...neverEndedMembers])];
    } else {
      stale = [...applied.holders];
    }
    let refused = false;
    for (const memberId of stale) {
      if (should.has(memberId)) continue;
      if (await this.take(guildId, memberId, roleId, 'shift ended (/duty role)')) applied.holders.delete(memberId);
      else refused = true;
    }
    for (const memberId of should) {
      if (applied.holders.has(memberId)) continue;
      if (await this.give(guildId, memberId, roleId)) applied.holders.add(memberId);
      else refused = true;
    }
    const times = [nextNeverEndedAt(onDuty), refused ? now + RETRY_AFTER_MS : undefined];
    const next = times.filter((at): at is number => at !== undefined);
    return next.length === 0 ? undefined : Math.min(...next);
  }

  /** True when the member holds the role now (or left the server). */
  private async give(guildId: string, memberId: string, roleId: string): Promise<boolean> {
    try {
      await this.deps.rest.put(Routes.guildMemberRole(guildId, memberId, roleId), { reason: 'on shift (/duty role)' });
      return true;
    } catch (error) {
      return this.failed(error, guildId, memberId, 'given');
    }
  }

  /** True when the member no longer holds the role (or left the server). */
  private async take(guildId: string, memberId: string, roleId: string, reason: string): Promise<boolean> {
    try {
      await this.deps.rest.delete(Routes.guildMemberRole(guildId, memberId, roleId), { reason });
      return true;
    } catch (error) {
      return this.failed(error, guildId, memberId, 'taken back');
    }
  }

  private failed(error: unknown, guildId: string, memberId: string, what: string): boolean {
    // A member who left has no role to change: done, not failed.
    if (error instanceof DiscordAPIError && error.code === UNKNOWN_MEMBER) return true;
    this.deps.logger.warn(
      { guildId, memberId, err: { message: describeDiscordError(error) } },
      `the on-duty role could not be ${what}; tried again at the next change, or a minute later`,
    );
    return false;
  }
}
