import type { SqlWrite } from '../../../store/sql-runner.js';
import type { ConductRules, RuleName } from './rule-settings.js';

/**
 * A case a rule found: its key in the community record (game server and number) and the moment the rule judged
 * (when it was made, or voided for the `voids` burst).
 */
export interface Hit {
  server: string;
  number: number;
  at: number;
  /** What the alert shows of the case, as the record had it when judged (absent: not known yet). */
  type?: string;
  targetName?: string;
}

/** The changes a judgement makes to a rule's and subject's findings. */
export interface FindingsPlan {
  /** Findings whose cases changed (or that are new), with all their cases now. */
  changed: Array<{ id: string; isNew: boolean; hits: Hit[] }>;
  /** Findings whose cases joined another's (a late case between them): `into` holds them now. */
  merged: Array<{ id: string; into: string }>;
  /** Findings left with no case (a late shift showed the moderator was on shift after all). */
  withdrawn: string[];
}

/** A guild's /conduct choices: where alerts go, who sees and answers them, and its rules. */
export interface ConductSettings {
  guildId: string;
  channelId: string | null;
  roleId: string | null;
  rules: ConductRules;
}

/** What the guard has still to judge: a case or a shift the record's writer merged (`number`: its number or id). */
export interface DueItem {
  guildId: string;
  kind: 'case' | 'shift';
  server: string;
  number: number;
  /** How many merges noted it: a judgement that raced a newer merge leaves it due (see {@link ConductStore.judged}). */
  noted: number;
  failures: number;
}

/**
 * What became of a finding: `open` until the role answers it (`acknowledged`, `dismissed`), `withdrawn` when the
 * record no longer bears it out (a late shift showed the moderator on shift), `merged` when a case between it and
 * another joined them (its alert then points at the other's).
 */
export type FindingState = 'open' | 'acknowledged' | 'dismissed' | 'withdrawn' | 'merged';

/** The alert message of a finding, written down before it is posted: `messageId` null until Discord answered. */
export interface FindingMessage {
  channelId: string;
  messageId: string | null;
  nonce: string;
  writtenAt: number;
}

/** An incident the guard found: one rule, one subject (a moderator, or a player for `staff-target`), its cases. */
export interface Finding {
  guildId: string;
  id: string;
  rule: RuleName;
  subject: string;
  openedAt: number;
  hits: Hit[];
  state: FindingState;
  mergedInto: string | null;
  actedBy: string | null;
  actedAt: number | null;
  /** Counts its changes; the alert shows `syncedVersion` of them. */
  version: number;
  syncedVersion: number;
  syncFailures: number;
  message: FindingMessage | null;
}

/** One judgement's plan for one rule and subject, with the findings' rule and subject. */
export interface PlannedFindings {
  guildId: string;
  rule: RuleName;
  subject: string;
  plan: FindingsPlan;
}

/** One item's judgement, as {@link ConductStore.judgedMany} writes it. */
export interface JudgedItem {
  item: DueItem;
  plans: readonly PlannedFindings[];
  alsoDue: ReadonlyArray<Pick<DueItem, 'guildId' | 'kind' | 'server' | 'number'>>;
}

/**
 * The conduct guard's store: each guild's settings, what is due for judging (written in the record's merges), the
 * findings and their alerts. Every change of a finding counts up its version; the alerts' sync brings the message
 * up to the version it read.
 */
export interface ConductStore {
  settingsOf(guildId: string): Promise<ConductSettings>;
  setChannel(guildId: string, channelId: string | null): Promise<void>;
  setRole(guildId: string, roleId: string | null): Promise<void>;
  setRules(guildId: string, rules: ConductRules): Promise<void>;
  /** The guilds with settings, for migrate-store. */
  listSettings(): Promise<ConductSettings[]>;

  /** The statements noting cases and shifts due (in the record writer's transaction, or on their own). */
  noteDueWrites(items: ReadonlyArray<Pick<DueItem, 'guildId' | 'kind' | 'server' | 'number'>>, now: number): SqlWrite[];
  /** Notes items due, on their own (a shift's cases to judge again). */
  noteDue(items: ReadonlyArray<Pick<DueItem, 'guildId' | 'kind' | 'server' | 'number'>>, now: number): Promise<void>;
  /** Up to `limit` items whose try is due, the longest-waiting first. */
  dueItems(now: number, limit: number): Promise<DueItem[]>;
  /**
   * Applies the plans and clears the item, in one transaction; the item stays due if a merge noted it again
   * since it was read. `now` is when the new findings were found; `alsoDue`, cases to judge again (a shift's).
   */
  judged(
    item: DueItem,
    plans: readonly PlannedFindings[],
    now: number,
    alsoDue?: ReadonlyArray<Pick<DueItem, 'guildId' | 'kind' | 'server' | 'number'>>,
  ): Promise<void>;
  /** Several items' {@link judged} in one transaction (their plans touch no rule and subject twice). */
  judgedMany(entries: readonly JudgedItem[], now: number): Promise<void>;
  /** The item's judgement failed: tried again at `tryAt`. */
  backOffDue(item: DueItem, tryAt: number): Promise<void>;

  /** The rule's and subject's live findings (not withdrawn or merged) with a case within `[from, to]`, oldest first. */
  findingsNear(guildId: string, rule: RuleName, subject: string, from: number, to: number): Promise<Finding[]>;
  finding(guildId: string, id: string): Promise<Finding | undefined>;
  /** Every finding of a guild, the newest first, up to `limit` (tests, migrate-store). */
  findingsOf(guildId: string, limit: number): Promise<Finding[]>;
  /** Up to `limit` findings whose alert shows less than they say and whose try is due. */
  unsynced(now: number, limit: number): Promise<Finding[]>;
  /** Writes the alert's message down unless one is; the finding as it stands then. */
  writeDown(guildId: string, id: string, message: FindingMessage): Promise<Finding | undefined>;
  /** The message Discord posted for it (replacing one deleted). */
  setMessage(guildId: string, id: string, message: FindingMessage): Promise<void>;
  /** The alert now shows `version`. */
  markSynced(guildId: string, id: string, version: number): Promise<void>;
  backOffSync(guildId: string, id: string, tryAt: number, failures: number): Promise<void>;
  /**
   * Acknowledges or dismisses an open finding (or one acted on, which changes the answer); undefined when it is
   * withdrawn, merged or gone.
   */
  act(
    guildId: string,
    id: string,
    state: 'acknowledged' | 'dismissed',
    by: string,
    at: number,
  ): Promise<Finding | undefined>;
  /** Deletes up to `limit` findings whose last case is older than `before`; how many. */
  sweep(before: number, limit: number): Promise<number>;
  /** migrate-store: keeps a finding as it is. */
  putFinding(finding: Finding): Promise<void>;
}
