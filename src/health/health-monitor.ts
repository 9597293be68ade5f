import { requireServiceId, webhookName } from '../admin/find-webhook.js';
import { relativeTime } from '../admin/format.js';
import type { PollHealth } from '../apps/release-poller.js';
import type { Clock } from '../clock.js';
import { toLoggableError } from '../discord/log-error.js';
import type { IntakeFailures } from '../intake/intake-failures.js';
import type { Logger } from '../logger.js';
import type { HeldEntries } from '../store/held-entries.js';
import type { HookActivityStore } from '../store/hook-activity.js';
import type { HookRecord, HookStore } from '../store/hooks.js';
import type { RecordStore } from '../store/records.js';
import type { StoreSignal, StoreSignals } from '../store/signals.js';
import type { Timers } from '../timers.js';
import type { AlertDesk } from './alert-desk.js';
import type { AlertSettings, AlertSettingsStore } from './alert-settings.js';
import { describeHeld } from './describe-held.js';
import {
  describeRecovery,
  DOWNTIME_WORTH_CHECKING_MS,
  Heartbeat,
  HEARTBEAT_EVERY_MS,
  proveWebhooks,
  saveRecoveryReport,
} from './downtime-recovery.js';
import { incidentKey, keyOf, type Incident, type IncidentStore, type IncidentType } from './incidents.js';
import { probeWebhook, type ProbeDeps } from './probe-webhook.js';
import { STREAK_ESCALATION, STREAK_WARNING } from './render-alert.js';
import { describeSilence, lastHeardAt, silenceTestDue } from './silence.js';

/** How often the feed's channels, held entries and silent webhooks are checked in servers with alerts set. */
export const DEFAULT_CHECK_EVERY_MS = 30_000;
/** The unit of /alerts set silence:<hours>; tests shorten it. */
const HOUR_MS = 60 * 60 * 1000;
/** Incidents whose alert carries Re-enable (render-alert.ts): a webhook switched off is said there already. */
const OFFERS_REENABLE: ReadonlySet<IncidentType> = new Set(['refusals', 'intake-errors', 'silence']);

export interface HealthMonitorDeps {
  hooks: Pick<HookStore, 'get' | 'listForGuild' | 'listAll'>;
  activity: Pick<HookActivityStore, 'get'>;
  deliveries: Pick<HeldEntries, 'statusOf'>;
  signals: StoreSignals;
  intakeFailures: IntakeFailures;
  incidents: IncidentStore;
  settings: AlertSettingsStore;
  desk: AlertDesk;
  /** The heartbeat and the recovery reports. */
  records: RecordStore;
  /** What a test ping and an enable need (the service, the server key, the intake's signals). */
  probe: ProbeDeps;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  checkEveryMs?: number;
  hourMs?: number;
}

/** What a check found about one subject: an incident to open or update, with these facts. */
interface Finding {
  label: string;
  count: number;
  escalated: boolean;
  detail: string;
}

/**
 * Watches the feed's health and keeps its incidents (src/health/incidents.ts) true: refusal and intake-failure
 * streaks per webhook as they happen (the store's signals, the intake's failure counts), Discord-refused
 * channels and held entries on a timer in servers that set an alert channel. It runs in the one process that
 * holds the gateway (like the slash commands), so each incident is tracked once.
 */
export class HealthMonitor {
  /** Open incidents by guild: what a delivery accepted in that guild may resolve. */
  private readonly open = new Map<string, Map<string, Incident>>();
  private readonly stops: Array<() => void> = [];
  private timer: unknown;
  private beatTimer: unknown;
  private running = false;
  private readonly heartbeat: Heartbeat;
  private starting: Promise<void> | undefined;
  private readonly checks = new Set<Promise<void>>();
  /** Hooks a check is testing now: what the service says meanwhile is that check's to report. */
  private readonly probing = new Set<string>();

  constructor(private readonly deps: HealthMonitorDeps) {
    this.heartbeat = new Heartbeat(deps.records);
  }

  /** Starts watching; never rejects (a store that fails at the start is tried again at the next check). */
  start(): Promise<void> {
    this.starting ??= this.begin();
    return this.starting;
  }

  private async begin(): Promise<void> {
    this.running = true;
    try {
      await this.resume();
    } catch (error) {
      this.deps.logger.warn(
        { err: toLoggableError(error) },
        'the health monitor could not start; tried again at the next check',
      );
      if (!this.running) return;
      this.timer = this.deps.timers.setTimeout(() => {
        if (this.running) this.starting = this.begin();
      }, this.deps.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS);
    }
  }

  /** Reads what the last run left (heartbeat, incidents), then subscribes and schedules the checks. */
  private async resume(): Promise<void> {
    this.open.clear();
    const lastBeat = await this.heartbeat.last();
    const now = this.deps.clock();
    await this.heartbeat.beat(now);
    const incidents = await this.deps.incidents.list();
    // Timers and subscriptions only once every read is done: a start that failed leaves nothing to undo.
    this.scheduleBeat();
    this.stops.push(this.deps.signals.subscribe((signal) => this.onSignal(signal)));
    this.stops.push(this.deps.intakeFailures.subscribe((hookId) => void this.track(this.checkIntakeFailures(hookId))));
    // After a restart: incidents whose message was not posted or edited yet are finished now.
    for (const incident of incidents) {
      if (incident.resolvedAt === null) this.index(incident);
      void this.deps.desk.sync(keyOf(incident));
    }
    if (lastBeat !== undefined && now - lastBeat > DOWNTIME_WORTH_CHECKING_MS) {
      // The first checks wait for the recovery: both would send test pings.
      void this.track(this.recover(lastBeat, now)).finally(() => this.schedule(0));
    } else {
      this.schedule(0);
    }
  }

  async stop(): Promise<void> {
    // First, so that a start under way or a start retry due now schedules nothing more.
    this.running = false;
    await this.starting;
    this.starting = undefined;
    for (const stop of this.stops.splice(0)) stop();
    this.deps.timers.clearTimeout(this.timer);
    this.deps.timers.clearTimeout(this.beatTimer);
    await this.settled();
  }

  /** Resolves when every check under way and every alert edit it caused has finished (tests). */
  async settled(): Promise<void> {
    await this.starting;
    while (this.checks.size > 0) await Promise.all([...this.checks]);
    await this.deps.desk.settled();
  }

  /** The incidents open in a server (for /status). */
  openIn(guildId: string): Incident[] {
    return [...(this.open.get(guildId)?.values() ?? [])];
  }

  /** Checks everything about one server now (after /alerts set, and from the timer). */
  checkGuild(guildId: string): Promise<void> {
    return this.track(this.checkFeed(guildId));
  }

  /** The release poller's word on a guild: failing polls are an incident, a good poll resolves it. */
  notePoll(guildId: string, health: PollHealth): void {
    if (!health.failing) {
      void this.track(this.resolve(incidentKey(guildId, 'release-poll', '')));
      return;
    }
    const finding = { label: '', count: health.failures, escalated: false, detail: health.problem };
    void this.track(this.raise(guildId, 'release-poll', '', finding));
  }

  /** Posts the server's open incidents that have no message yet (after /alerts set). */
  async postOpen(guildId: string): Promise<void> {
    await Promise.all(this.openIn(guildId).map((incident) => this.deps.desk.sync(keyOf(incident))));
  }

  /** Adds what an admin did from an alert's buttons to the open incidents of that webhook, and edits them. */
  async noteAction(guildId: string, hookId: string, line: string): Promise<void> {
    for (const incident of this.openIn(guildId).filter((open) => open.subject === hookId)) {
      const key = keyOf(incident);
      const stored = await this.deps.incidents.update(key, (current) =>
        current && current.resolvedAt === null
          ? { ...current, actions: [...current.actions, line].slice(-5) }
          : current,
      );
      if (stored?.resolvedAt === null) this.index(stored);
      await this.deps.desk.sync(key);
    }
  }

  private onSignal(signal: StoreSignal): void {
    switch (signal.kind) {
      case 'hook-outcome':
        // A refusal lengthens a streak; the ping arriving ends one, and ends a silence.
        void this.track(this.checkRefusals(signal.hookId).then(() => this.checkHeard(signal.hookId)));
        break;
      case 'work': {
        // An accepted delivery ends its hook's refusal streak: only guilds with an open incident pay for a look.
        const open = this.open.get(signal.guildId);
        if (open) for (const incident of open.values()) void this.track(this.recheck(incident));
        break;
      }
      case 'hook-state':
        void this.track(this.checkSwitchedOff(signal.hookId));
        break;
      case 'settings-changed':
        void this.track(this.checkFeed(signal.guildId));
        break;
      case 'resync':
        this.schedule(0);
        break;
      case 'hook-changed':
        break;
    }
  }

  private async recheck(incident: Incident): Promise<void> {
    switch (incident.type) {
      case 'refusals':
        return this.checkRefusals(incident.subject);
      case 'intake-errors':
        return this.checkIntakeFailures(incident.subject);
      case 'silence':
        return this.checkHeard(incident.subject);
      case 'switched-off':
        return this.checkSwitchedOff(incident.subject);
      case 'channel':
      case 'held':
      case 'release-poll':
        return undefined;
    }
  }

  /** A silence incident ends when anything arrives from its webhook after it opened. */
  private async checkHeard(hookId: string): Promise<void> {
    const hook = await this.deps.hooks.get(hookId);
    if (!hook) return;
    const key = incidentKey(hook.guildId, 'silence', hookId);
    const open = this.open.get(hook.guildId)?.get(key);
    if (!open) return;
    if (lastHeardAt(hook, await this.deps.activity.get(hookId)) > open.openedAt) await this.resolve(key);
  }

  /**
   * The service said the webhook is off (to /webhook test, a Send test, a check): an alert with Re-enable, unless
   * an open alert of the webhook offers it already or a check testing it now reports it. It ends when the
   * service says on again, or when anything arrives from the webhook after.
   */
  private async checkSwitchedOff(hookId: string): Promise<void> {
    const hook = await this.deps.hooks.get(hookId);
    if (!hook) return;
    const key = incidentKey(hook.guildId, 'switched-off', hookId);
    const { state, lastDeliveryAt } = await this.deps.activity.get(hookId);
    if (state?.enabled !== false || (lastDeliveryAt ?? 0) > state.at) return this.resolve(key);
    if (this.probing.has(hookId)) return;
    const said = this.openIn(hook.guildId).some((open) => open.subject === hookId && OFFERS_REENABLE.has(open.type));
    if (said) return;
    await this.raise(hook.guildId, 'switched-off', hookId, {
      label: `\`${webhookName(hook)}\``,
      count: 0,
      escalated: false,
      detail: `learnt ${relativeTime(state.at)}`,
    });
  }

  /** Runs a check that tests these hooks; what the service says of them meanwhile is left to it. */
  private async whileProbing<T>(hookIds: readonly string[], check: () => Promise<T>): Promise<T> {
    for (const hookId of hookIds) this.probing.add(hookId);
    try {
      return await check();
    } finally {
      for (const hookId of hookIds) this.probing.delete(hookId);
    }
  }

  /**
   * Webhooks silent for the server's silence time get the service's test ping (at most every 30 min while
   * silent). The ping arriving means quiet, not broken: no alert. Not arriving means the service does not
   * reach the bot: an alert saying what to check.
   */
  private async checkSilence(settings: AlertSettings): Promise<void> {
    const { guildId } = settings;
    const silenceMs = settings.silenceHours * (this.deps.hourMs ?? HOUR_MS);
    for (const hook of await this.deps.hooks.listForGuild(guildId)) {
      if (hook.webhookId === null) continue;
      const key = incidentKey(guildId, 'silence', hook.hookId);
      const open = this.open.get(guildId)?.get(key);
      const heardAt = lastHeardAt(hook, await this.deps.activity.get(hook.hookId));
      if (open && heardAt > open.openedAt) {
        await this.resolve(key);
        continue;
      }
      if (!silenceTestDue(heardAt, this.deps.clock(), silenceMs, open)) continue;
      // Known to be switched off, and alerted as such: that is why it is silent.
      if (this.open.get(guildId)?.has(incidentKey(guildId, 'switched-off', hook.hookId))) continue;
      // The silence alert says it when the test finds the webhook switched off, and offers Re-enable.
      await this.whileProbing([hook.hookId], async () => {
        const probe = await probeWebhook(this.deps.probe, requireServiceId(hook));
        if (probe.arrived) return this.resolve(key);
        return this.raise(guildId, 'silence', hook.hookId, {
          label: `\`${webhookName(hook)}\``,
          // The tests sent: each one bumps the incident, which is what spaces the next test 30 min later.
          count: (open?.count ?? 0) + 1,
          escalated: false,
          detail: describeSilence(hook, heardAt, probe),
        });
      });
    }
  }

  /** After the bot's own downtime: every webhook proved, and what was done reported per server. */
  private async recover(downSince: number, backAt: number): Promise<void> {
    const byGuild = new Map<string, HookRecord[]>();
    for (const hook of await this.deps.hooks.listAll()) {
      byGuild.set(hook.guildId, [...(byGuild.get(hook.guildId) ?? []), hook]);
    }
    for (const [guildId, hooks] of byGuild) {
      // Switched off and on again as it is proved: only a webhook left off is worth an alert of its own.
      const hookIds = hooks.map((hook) => hook.hookId);
      const lines = await this.whileProbing(hookIds, () => proveWebhooks(this.deps.probe, hooks));
      for (const hookId of hookIds) await this.checkSwitchedOff(hookId);
      if (lines.length === 0) continue;
      const report = { guildId, downSince, backAt, lines };
      await saveRecoveryReport(this.deps.records, report);
      this.deps.logger.info({ guildId, downSince, backAt, lines }, 'webhooks proved after downtime');
      const settings = await this.deps.settings.get(guildId);
      if (settings) {
        const { title, description } = describeRecovery(report);
        await this.deps.desk.announce(settings.channelId, { title, description }, [
          'recovery',
          guildId,
          String(downSince),
        ]);
      }
    }
  }

  private scheduleBeat(): void {
    this.beatTimer = this.deps.timers.setTimeout(() => {
      if (!this.running) return;
      void this.track(this.heartbeat.beat(this.deps.clock())).finally(() => {
        if (this.running) this.scheduleBeat();
      });
    }, HEARTBEAT_EVERY_MS);
  }

  private async checkRefusals(hookId: string): Promise<void> {
    const hook = await this.deps.hooks.get(hookId);
    if (!hook) return;
    const activity = await this.deps.activity.get(hookId);
    const key = incidentKey(hook.guildId, 'refusals', hookId);
    if (activity.refusedInARow >= STREAK_WARNING) {
      await this.raise(hook.guildId, 'refusals', hookId, {
        label: `\`${webhookName(hook)}\``,
        count: activity.refusedInARow,
        escalated: activity.refusedInARow >= STREAK_ESCALATION,
        detail: (activity.lastRefusal ?? 'unknown').replace(/_/g, ' '),
      });
    } else {
      await this.resolve(key);
    }
  }

  private async checkIntakeFailures(hookId: string): Promise<void> {
    const hook = await this.deps.hooks.get(hookId);
    if (!hook) return;
    const streak = this.deps.intakeFailures.streakOf(hookId);
    if (streak && streak.count >= STREAK_WARNING) {
      await this.raise(hook.guildId, 'intake-errors', hookId, {
        label: `\`${webhookName(hook)}\``,
        count: streak.count,
        escalated: streak.count >= STREAK_ESCALATION,
        detail: streak.detail,
      });
    } else {
      await this.resolve(incidentKey(hook.guildId, 'intake-errors', hookId));
    }
  }

  /** Channels Discord refuses and entries held, in a server with an alert channel. */
  private async checkFeed(guildId: string): Promise<void> {
    if (!(await this.deps.settings.get(guildId))) return;
    const status = await this.deps.deliveries.statusOf(guildId);
    const broken = new Set<string>();
    for (const channel of status.broken) {
      broken.add(channel.channelId);
      await this.raise(guildId, 'channel', channel.channelId, {
        label: `<#${channel.channelId}>`,
        count: 0,
        escalated: false,
        detail: `Discord answers ${channel.status} (${channel.reason})`,
      });
    }
    for (const incident of this.openIn(guildId)) {
      if (incident.type === 'channel' && !broken.has(incident.subject)) await this.resolve(keyOf(incident));
    }
    const held = describeHeld(status);
    if (held.count > 0) {
      await this.raise(guildId, 'held', '', { label: '', count: held.count, escalated: false, detail: held.detail });
    } else {
      await this.resolve(incidentKey(guildId, 'held', ''));
    }
  }

  /** Opens the incident, or updates it; the alert is edited only when what it shows changed. */
  private async raise(guildId: string, type: IncidentType, subject: string, finding: Finding): Promise<void> {
    const key = incidentKey(guildId, type, subject);
    const now = this.deps.clock();
    let changed = false;
    const stored = await this.deps.incidents.update(key, (current) => {
      if (current && current.resolvedAt === null) {
        changed =
          current.count !== finding.count ||
          current.escalated !== finding.escalated ||
          current.detail !== finding.detail ||
          current.label !== finding.label;
        return changed ? { ...current, ...finding, updatedAt: now } : current;
      }
      // A resolved incident still waiting for its last edit is replaced: a new occurrence is a new alert.
      changed = true;
      return {
        guildId,
        type,
        subject,
        ...finding,
        openedAt: now,
        updatedAt: now,
        actions: [],
        resolvedAt: null,
        message: null,
      };
    });
    if (!stored) return;
    if (!this.open.get(guildId)?.has(key)) {
      this.deps.logger.warn({ guildId, incident: key, detail: finding.detail }, 'feed health incident opened');
    }
    this.index(stored);
    if (changed) await this.deps.desk.sync(key);
  }

  private async resolve(key: string): Promise<void> {
    const guildId = key.slice(0, key.indexOf(':'));
    const known = this.open.get(guildId)?.get(key);
    // Nothing open here: no read, no write (this runs for every accepted delivery of a guild with an incident).
    if (!known) return;
    const now = this.deps.clock();
    const stored = await this.deps.incidents.update(key, (current) =>
      current && current.resolvedAt === null ? { ...current, resolvedAt: now, updatedAt: now } : current,
    );
    this.unindex(guildId, key);
    if (stored) {
      this.deps.logger.info({ guildId, incident: key }, 'feed health incident resolved');
      await this.deps.desk.sync(key);
    }
  }

  private index(incident: Incident): void {
    let byKey = this.open.get(incident.guildId);
    if (!byKey) {
      byKey = new Map();
      this.open.set(incident.guildId, byKey);
    }
    byKey.set(keyOf(incident), incident);
  }

  private unindex(guildId: string, key: string): void {
    const byKey = this.open.get(guildId);
    byKey?.delete(key);
    if (byKey?.size === 0) this.open.delete(guildId);
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.deps.timers.clearTimeout(this.timer);
    this.timer = this.deps.timers.setTimeout(() => {
      void this.track(this.checkAll()).finally(() => this.schedule(this.deps.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS));
    }, ms);
  }

  private async checkAll(): Promise<void> {
    // Each server and each incident on its own: one that fails is logged and checked again next time, and the
    // others are checked now.
    for (const settings of await this.deps.settings.list()) {
      await this.track(
        this.checkFeed(settings.guildId).then(() => this.checkSilence(settings)),
        { guildId: settings.guildId },
      );
    }
    for (const byKey of [...this.open.values()]) {
      for (const incident of [...byKey.values()]) {
        await this.track(this.recheck(incident), { guildId: incident.guildId, incident: keyOf(incident) });
      }
    }
  }

  /**
   * Runs a check, logging its failure with `context`: a broken check must never take the process down.
   * Never rejects.
   */
  private track(check: Promise<void>, context: Record<string, string> = {}): Promise<void> {
    const tracked = check
      .catch((error: unknown) =>
        this.deps.logger.warn({ ...context, err: toLoggableError(error) }, 'health check failed; tried again later'),
      )
      .finally(() => this.checks.delete(tracked));
    this.checks.add(tracked);
    return tracked;
  }
}
