import { createHash } from 'node:crypto';

import { backoffDelay, type BackoffPolicy } from '../../base/backoff.js';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { Repeating } from '../../base/repeating.js';
import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import { SHIFT_NEVER_ENDED_AFTER_MS } from '../duty/index.js';
import type { Job } from '../feature.js';
import type { StaffMoments } from '../record/index.js';
import { casesOfShift } from './cases-of-shift.js';
import type { Hit } from './hits.js';
import { judgeCase, type Judgement } from './judge-case.js';
import { planFindings } from './plan-findings.js';
import { groupGapMs, type ConductRules, type RuleName } from './rules.js';
import type { ConductSettings, ConductStore, DueItem, JudgedItem, PlannedFindings } from './store/conduct-store.js';

/** How often the guard looks for what the record's writer merged (an alert follows a case by about this). */
const DEFAULT_EVERY_MS = 2_000;
/** Items judged per pass at most: a pass never holds the store long, and the next comes soon. */
const DEFAULT_BATCH = 200;
/** After a failed judgement (the store down, a bad row): when the item is tried again. */
const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 10_000, capMs: 10 * 60 * 1000 };

export interface ConductGuardDeps {
  conduct: ConductStore;
  moments: StaffMoments;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  /** Told after a pass that changed any finding (the alerts' sync runs then). */
  onFindings?: (() => void) | undefined;
  everyMs?: number | undefined;
  batch?: number | undefined;
  backoff?: BackoffPolicy | undefined;
}

/**
 * The conduct guard's judge: takes what the record's writer noted due (in its merges' transaction, so nothing
 * merged is missed across a crash) and judges it from the record as of each case's own moment, whatever order the
 * deliveries came in: a case by the rules (judge-case.ts), a shift by judging again the cases it may change
 * (cases-of-shift.ts). Each item's findings are planned (plan-findings.ts) and written with the item cleared in one
 * transaction; an item that fails waits and is tried again, while the rest go on. Runs where the gateway is, like
 * every job: one judge per deployment.
 */
export class ConductGuard implements Job {
  private readonly repeating: Repeating;

  constructor(private readonly deps: ConductGuardDeps) {
    this.repeating = new Repeating(
      deps.timers,
      deps.everyMs ?? DEFAULT_EVERY_MS,
      () => this.judgeDue(),
      (error) => deps.logger.warn({ err: toLoggableError(error) }, 'conduct guard pass failed'),
    );
  }

  start(): void {
    this.repeating.start();
  }

  async stop(): Promise<void> {
    await this.repeating.stop();
  }

  /**
   * Judges what is due, a batch at a time, until none is (those that failed wait for their next try); how many items
   * were judged (tests call it). A batch's judgements are written in one transaction (one commit, not one an item);
   * a judgement that would read the findings of a rule and subject an earlier one of the batch changed writes those
   * first, so each reads what the ones before it found.
   */
  async judgeDue(): Promise<number> {
    const { conduct, clock } = this.deps;
    const batch = this.deps.batch ?? DEFAULT_BATCH;
    let judged = 0;
    let changed = false;
    for (;;) {
      const items = await conduct.dueItems(clock(), batch);
      const settings = new Map<string, Promise<ConductSettings>>();
      const pending = new PendingJudgements(conduct, clock, (item, error) => this.backOff(item, error));
      for (const item of items) {
        if (!settings.has(item.guildId)) settings.set(item.guildId, conduct.settingsOf(item.guildId));
        try {
          const guild = await (settings.get(item.guildId) as Promise<ConductSettings>);
          changed = (await this.judgeItem(item, guild, pending)) || changed;
        } catch (error) {
          await this.backOff(item, error);
        }
      }
      const judgedNow = await pending.flush();
      judged += judgedNow;
      // Until none is due: a shift judged makes its cases due, judged in the same pass. A batch that all failed
      // (the store down) is left to the next pass.
      if (items.length === 0 || judgedNow === 0) break;
    }
    if (changed) this.deps.onFindings?.();
    return judged;
  }

  /** Judges one item into the batch's pending writes; true if any finding changes. */
  private async judgeItem(item: DueItem, guild: ConductSettings, pending: PendingJudgements): Promise<boolean> {
    const { moments } = this.deps;
    // A server with no alerts channel is not watched: what it merged is dropped, not judged.
    if (guild.channelId === null) {
      pending.add({ item, plans: [], alsoDue: [] }, []);
      return false;
    }
    if (item.kind === 'shift') {
      const shift = { server: item.server, shiftId: item.number };
      const cases = await casesOfShift(moments, item.guildId, shift, guild.rules, SHIFT_NEVER_ENDED_AFTER_MS);
      const alsoDue = cases.map((key) => ({ guildId: item.guildId, kind: 'case' as const, ...key }));
      pending.add({ item, plans: [], alsoDue }, []);
      return false;
    }
    const key = { server: item.server, number: item.number };
    const judgements = await judgeCase(moments, item.guildId, key, guild.rules, SHIFT_NEVER_ENDED_AFTER_MS);
    const plans: PlannedFindings[] = [];
    const touched: string[] = [];
    for (const judgement of judgements) {
      const subjectKey = `${item.guildId}|${judgement.rule}|${judgement.subject}`;
      if (pending.touches(subjectKey)) await pending.flush();
      const plan = await this.plan(item.guildId, judgement, guild.rules);
      if (plan) {
        plans.push(plan);
        touched.push(subjectKey);
      }
    }
    pending.add({ item, plans, alsoDue: [] }, touched);
    return plans.length > 0;
  }

  private async plan(guildId: string, judgement: Judgement, rules: ConductRules): Promise<PlannedFindings | undefined> {
    const { rule, subject, scope, found, from, to } = judgement;
    const gap = groupGapMs(rule, rules);
    const stored = await this.deps.conduct.findingsNear(guildId, rule, subject, from - gap, to + gap);
    const plan = planFindings(stored, scope, found, gap, (first, attempt) =>
      findingId(guildId, rule, subject, first, attempt),
    );
    if (plan.changed.length + plan.merged.length + plan.withdrawn.length === 0) return undefined;
    return { guildId, rule, subject, plan };
  }

  private async backOff(item: DueItem, error: unknown): Promise<void> {
    const retryInMs = backoffDelay(item.failures + 1, this.deps.backoff ?? DEFAULT_BACKOFF);
    this.deps.logger.warn(
      { guildId: item.guildId, kind: item.kind, failures: item.failures + 1, retryInMs, err: toLoggableError(error) },
      'conduct judgement failed; tried again later',
    );
    try {
      await this.deps.conduct.backOffDue(item, this.deps.clock() + retryInMs);
    } catch (backOffError) {
      // The store itself is down: the item is still due and the next pass tries it.
      this.deps.logger.warn({ err: toLoggableError(backOffError) }, 'conduct judgement not backed off');
    }
  }
}

/**
 * A finding's id: made from its rule, subject and first case, so two judges finding it at once make one, and
 * short enough for a button's custom id (`attempt` tells apart a later finding that starts with the same case).
 */
export function findingId(guildId: string, rule: RuleName, subject: string, first: Hit, attempt: number): string {
  const text = [guildId, rule, subject, first.server, String(first.number), String(attempt)].join('\u0000');
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

/**
 * A batch's judgements not written yet: written together by {@link flush}, or, when that transaction fails, each on
 * its own, so one bad item is set to wait while the rest are written.
 */
class PendingJudgements {
  private entries: JudgedItem[] = [];
  private readonly subjects = new Set<string>();
  private written = 0;

  constructor(
    private readonly conduct: Pick<ConductStore, 'judged' | 'judgedMany'>,
    private readonly clock: Clock,
    private readonly backOff: (item: DueItem, error: unknown) => Promise<void>,
  ) {}

  add(entry: JudgedItem, subjects: readonly string[]): void {
    this.entries.push(entry);
    for (const subject of subjects) this.subjects.add(subject);
  }

  touches(subject: string): boolean {
    return this.subjects.has(subject);
  }

  /** Writes what is pending; how many items were judged in all so far. */
  async flush(): Promise<number> {
    const entries = this.entries;
    this.entries = [];
    this.subjects.clear();
    if (entries.length === 0) return this.written;
    try {
      await this.conduct.judgedMany(entries, this.clock());
      this.written += entries.length;
    } catch {
      for (const { item, plans, alsoDue } of entries) {
        try {
          await this.conduct.judged(item, plans, this.clock(), alsoDue);
          this.written += 1;
        } catch (error) {
          await this.backOff(item, error);
        }
      }
    }
    return this.written;
  }
}
