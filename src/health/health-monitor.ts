import { webhookName } from '../admin/find-webhook.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { DeliveryQueue } from '../store/deliveries.js';
import type { HookActivityStore } from '../store/hook-activity.js';
import type { HookStore } from '../store/hooks.js';
import type { StoreSignal, StoreSignals } from '../store/signals.js';
import type { Timers } from '../timers.js';
import type { AlertDesk } from './alert-desk.js';
import type { AlertSettingsStore } from './alert-settings.js';
import { describeHeld } from './describe-held.js';
import { incidentKey, keyOf, type Incident, type IncidentStore, type IncidentType } from './incidents.js';
import type { IntakeFailures } from './intake-failures.js';
import { STREAK_ESCALATION, STREAK_WARNING } from './render-alert.js';

/** How often the feed's channels and held entries are checked in servers with alerts set. */
export const DEFAULT_CHECK_EVERY_MS = 30_000;

export interface HealthMonitorDeps {
  hooks: Pick<HookStore, 'get'>;
  activity: Pick<HookActivityStore, 'get'>;
  deliveries: Pick<DeliveryQueue, 'statusOf'>;
  signals: StoreSignals;
  intakeFailures: IntakeFailures;
  incidents: IncidentStore;
  settings: AlertSettingsStore;
  desk: AlertDesk;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  checkEveryMs?: number;
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
  private running = false;
  private readonly checks = new Set<Promise<void>>();

  constructor(private readonly deps: HealthMonitorDeps) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stops.push(this.deps.signals.subscribe((signal) => this.onSignal(signal)));
    this.stops.push(this.deps.intakeFailures.subscribe((hookId) => void this.track(this.checkIntakeFailures(hookId))));
    // After a restart: incidents whose message was not posted or edited yet are finished now.
    for (const incident of await this.deps.incidents.list()) {
      if (incident.resolvedAt === null) this.index(incident);
      void this.deps.desk.sync(keyOf(incident));
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const stop of this.stops.splice(0)) stop();
    this.deps.timers.clearTimeout(this.timer);
    await this.settled();
  }

  /** Resolves when every check under way and every alert edit it caused has finished (tests). */
  async settled(): Promise<void> {
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
        // A refusal lengthens a streak; the ping arriving ends one.
        void this.track(this.checkRefusals(signal.hookId));
        break;
      case 'work': {
        // An accepted delivery ends its hook's refusal streak: only guilds with an open incident pay for a look.
        const open = this.open.get(signal.guildId);
        if (open) for (const incident of open.values()) void this.track(this.recheck(incident));
        break;
      }
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
      case 'channel':
      case 'held':
      case 'silence':
        return undefined;
    }
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
    for (const settings of await this.deps.settings.list()) await this.checkFeed(settings.guildId);
    for (const byKey of [...this.open.values()]) {
      for (const incident of [...byKey.values()]) await this.recheck(incident);
    }
  }

  /** Runs a check, logging its failure: a broken check must never take the process down. Never rejects. */
  private track(check: Promise<void>): Promise<void> {
    const tracked = check
      .catch((error: unknown) =>
        this.deps.logger.warn(
          { err: error instanceof Error ? { message: error.message } : error },
          'health check failed',
        ),
      )
      .finally(() => this.checks.delete(tracked));
    this.checks.add(tracked);
    return tracked;
  }
}
