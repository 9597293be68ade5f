/** Leave of absence (`leave`: excused), or reduced activity (`reduced`: a reduced quota). */
export type LeaveKind = 'leave' | 'reduced';

/** Where a request stands: waiting for a leave manager, approved, denied, or cancelled by its member. */
export type LeaveState = 'pending' | 'approved' | 'denied' | 'cancelled';

/** What the leave job still has to do for a request: post its card, give its role at its start, take it back. */
export type LeaveWork = 'card' | 'start' | 'end';

/** A guild's /leave choices. */
export interface LeaveSettings {
  /** Where requests' cards are posted (/leave channel); null: requests are not open. */
  channelId: string | null;
  /** The leave managers' role (/leave managers): its members approve and deny. */
  managerRoleId: string | null;
  /** The role given for a leave's duration (/leave role), and who chose it. */
  roleId: string | null;
  roleSetBy: string | null;
  /** The time zone a request's dates are read in (an IANA name). */
  timeZone: string;
}

/** What a member asks for with /leave request. */
export interface NewLeave {
  memberId: string;
  kind: LeaveKind;
  startsAt: number;
  /** Its end, excluded: the midnight after its last day. */
  endsAt: number;
  reason: string;
  askedAt: number;
}

/** A request as the store keeps it. */
export interface LeaveRequest extends NewLeave {
  guildId: string;
  /** Its number in the guild, from 1. */
  number: number;
  /** The end asked for; `endsAt` is the return when the member came back early. */
  plannedEnd: number;
  state: LeaveState;
  decidedBy: string | null;
  decidedAt: number | null;
  card: { channelId: string; messageId: string | null; askedAt: number | null } | null;
  work: LeaveWork | null;
  tryAt: number | null;
  failures: number;
}

/** An approved leave, as the other features read it (the duty board, quotas, the digest, the coverage guard). */
export interface MemberLeave {
  memberId: string;
  number: number;
  kind: LeaveKind;
  startsAt: number;
  endsAt: number;
}

/** What {@link LeaveStore.addRequest} did. */
export type AddedLeave =
  | { readonly kind: 'stored'; readonly request: LeaveRequest }
  /** Another pending or approved request of the member overlaps it (read in the same transaction): nothing stored. */
  | { readonly kind: 'overlaps' }
  /** The guild has no /leave channel: requests are not open. */
  | { readonly kind: 'closed' };

/** The leave role the bot gave for a request. */
export interface LeaveRoleHolder {
  number: number;
  memberId: string;
  roleId: string;
  /** When Discord confirmed it; null: asked, no answer yet. */
  givenAt: number | null;
}

/**
 * Leave of absence and reduced activity (src/features/leave): a guild's settings, its members' requests (numbered,
 * never two overlapping pending or approved ones of a member), what the leave job still has to do for each (read by
 * index: only the rows due), and the roles given for them.
 */
export interface LeaveStore {
  settingsOf(guildId: string): Promise<LeaveSettings>;
  setChannel(guildId: string, channelId: string | null, timeZone: string): Promise<void>;
  setManagerRole(guildId: string, roleId: string | null): Promise<void>;
  setRole(guildId: string, roleId: string | null, setBy: string | null): Promise<void>;

  /**
   * Stores a request under the guild's next number, unless the member has a pending or approved request that
   * overlaps it: the number is raised first in the same transaction, so two requests of a guild wait for each
   * other and the second sees the first. Its card is still to post (`work` 'card', due now).
   */
  addRequest(guildId: string, ask: NewLeave): Promise<AddedLeave>;
  requestOf(guildId: string, number: number): Promise<LeaveRequest | undefined>;
  /** The member's pending and approved requests that overlap `from`–`to`. */
  overlapping(guildId: string, memberId: string, from: number, to: number): Promise<LeaveRequest[]>;
  /** The member's requests, the latest start first, `limit` at most. */
  requestsOf(guildId: string, memberId: string, limit: number): Promise<LeaveRequest[]>;
  /** The guild's pending requests and its approved ones not over at `now`, by start, `limit` at most. */
  openRequests(guildId: string, now: number, limit: number): Promise<LeaveRequest[]>;

  /**
   * Approves or denies a pending request (only then: of two managers, one decides); an approved one is started by
   * the job at its start. The request as it is now, or undefined when it was no longer pending.
   */
  decide(
    guildId: string,
    number: number,
    decision: 'approved' | 'denied',
    by: string,
    at: number,
  ): Promise<LeaveRequest | undefined>;
  /** Cancels a pending request, or an approved one not started by `at`; false when it was neither. */
  cancel(guildId: string, number: number, at: number): Promise<boolean>;
  /** Ends an approved leave under way at `at` there and then (an early return); false when none was under way. */
  endEarly(guildId: string, number: number, at: number): Promise<boolean>;

  /** The card's first post is under way in `channelId` (its first try's time stays). */
  askCard(guildId: string, number: number, channelId: string, at: number): Promise<void>;
  /** The card was posted as `messageId`: its work is done, if it was still the card's. */
  setCard(guildId: string, number: number, channelId: string, messageId: string): Promise<void>;

  /** Up to `limit` requests whose work is due by `now`, the longest due first (by index). */
  due(now: number, limit: number): Promise<LeaveRequest[]>;
  /** When the next request's work is due (by index), or undefined when none has any. */
  nextDue(): Promise<number | undefined>;
  /**
   * Moves a request's work on (to `next`, due at `tryAt`; null: nothing left), its failures forgotten; only if it
   * still is the work the caller did (an early end or a cancel meanwhile stands).
   */
  moveOn(
    guildId: string,
    number: number,
    from: LeaveWork,
    next: LeaveWork | null,
    tryAt: number | null,
  ): Promise<boolean>;
  /** The request's work failed: tried again at `tryAt`, one more failure counted; only if it is still `work`. */
  backOff(guildId: string, number: number, work: LeaveWork, tryAt: number): Promise<void>;

  /** The guild's approved leave under way at `at`. */
  onLeaveAt(guildId: string, at: number): Promise<MemberLeave[]>;
  /** The guild's approved leave that overlaps `from`–`to`, by start. */
  leaveIn(guildId: string, from: number, to: number): Promise<MemberLeave[]>;
  /** The member's approved leave that overlaps `from`–`to`, by start. */
  memberLeaveIn(guildId: string, memberId: string, from: number, to: number): Promise<MemberLeave[]>;

  noteRoleHolder(guildId: string, holder: LeaveRoleHolder): Promise<void>;
  roleHolderOf(guildId: string, number: number): Promise<LeaveRoleHolder | undefined>;
  forgetRoleHolder(guildId: string, number: number): Promise<void>;

  /** A role's reduced quota (hours), or none (null): its members on reduced activity are then excused. */
  setReducedQuota(guildId: string, roleId: string, hours: number | null): Promise<void>;
  /** The guild's reduced quotas, hours by role id. */
  reducedQuotasOf(guildId: string): Promise<Map<string, number>>;

  /** Deletes requests that ended before `before` (and their holders, if any are left), in slices. */
  sweep(before: number): Promise<number>;
}
