import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { relativeTime } from '../../discord/relative-time.js';
import type { IntakeFailures } from '../../intake/intake-failures.js';
import type { DocumentStore } from '../../store/documents.js';
import type { HeldEntries } from '../../store/held-entries.js';
import type { HookActivityStore } from '../../store/hook-activity.js';
import type { HookStore, StoredHook } from '../../store/hooks.js';
import { requireServiceId, webhookName } from '../webhooks/index.js';
import type { AlertDesk } from './alert-desk.js';
import type { AlertSettings, AlertSettingsStore } from './alert-settings.js';
import { describeHeld } from './describe-held.js';
import { describeRecovery, proveWebhooks, saveRecoveryReport } from './downtime-recovery.js';
import { incidentKey, keyOf, type Incident, type IncidentType } from './incidents.js';
import type { OpenIncidents } from './open-incidents.js';
import { probeWebhook, type ProbeDeps } from './probe-webhook.js';
import { STREAK_ESCALATION, STREAK_WARNING } from './render-alert.js';
import { describeSilence, lastHeardAt, silenceTestDue } from './silence.js';

/** The unit of /alerts set silence:<hours>; tests shorten it. */
const HOUR_MS = 60 * 60 * 1000;
/** Incidents whose alert carries Re-enable (render-alert.ts): a webhook switched off is said there already. */
const OFFERS_REENABLE: ReadonlySet<IncidentType> = new Set(['refusals', 'intake-errors', 'silence']);

export interface HealthChecksDeps {
  hooks: Pick<HookStore, 'get' | 'listForGuild' | 'listAll'>;
  activity: Pick<HookActivityStore, 'get'>;
  deliveries: Pick<HeldEntries, 'statusOf'>;
  intakeFailures: IntakeFailures;
  settings: AlertSettingsStore;
  desk: AlertDesk;
  /** The recovery reports. */
  documents: DocumentStore;
  /** What a test ping needs (the service, the server key, the intake's signals). */
  probe: ProbeDeps;
  clock: Clock;
  logger: Logger;
  hourMs?: number;
}

/**
 * The checks of the feed's health: each looks at one thing (a webhook's refusal or intake-failure streak, its
 * silence, whether the service switched it off, a server's refused channels and held entries) and raises or
 * resolves its incident. When they run is the monitor's business (health-monitor.ts).
 */
export class HealthChecks {
  /** Hooks a check is testing now: what the service says meanwhile is that check's to report. */
  private readonly probing = new Set<string>();

  constructor(
    private readonly deps: HealthChecksDeps,
    private readonly incidents: OpenIncidents,
  ) {}

  /** Looks again at what an open incident is about; channels, held entries and polls are looked at elsewhere. */
  async recheck(incident: Incident): Promise<void> {
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
      case 'coverage':
      case 'digest':
      case 'duty-role':
        return undefined;
    }
  }

  /** A silence incident ends when anything arrives from its webhook after it opened. */
  async checkHeard(hookId: string): Promise<void> {
    const hook = await this.deps.hooks.get(hookId);
    if (!hook) return;
    const open = this.incidents.find(hook.guildId, 'silence', hookId);
    if (!open) return;
    if (lastHeardAt(hook, await this.deps.activity.get(hookId)) > open.openedAt)
      await this.incidents.resolve(keyOf(open));
  }

  /**
   * The service said the webhook is off (to /webhook test, a Send test, a check): an alert with Re-enable, unless
   * an open alert of the webhook offers it already or a check testing it now reports it. It ends when the
   * service says on again, or when anything arrives from the webhook after.
   */
  async checkSwitchedOff(hookId: string): Promise<void> {
    const hook = await this.deps.hooks.get(hookId);
    if (!hook) return;
    const key = incidentKey(hook.guildId, 'switched-off', hookId);
    const { state, lastDeliveryAt } = await this.deps.activity.get(hookId);
    if (state?.enabled !== false || (lastDeliveryAt ?? 0) > state.at) return this.incidents.resolve(key);
    if (this.probing.has(hookId)) return;
    const open = this.incidents.in(hook.guildId);
    if (open.some((incident) => incident.subject === hookId && OFFERS_REENABLE.has(incident.type))) return;
    await this.incidents.raise(hook.guildId, 'switched-off', hookId, {
      label: `\`${webhookName(hook)}\``,
      count: 0,
      escalated: false,
      detail: `learnt ${relativeTime(state.at)}`,
    });
  }

  /**
   * Webhooks silent for the server's silence time get the service's test ping (at most every 30 min while
   * silent). The ping arriving means quiet, not broken: no alert. Not arriving means the service does not
   * reach the bot: an alert saying what to check.
   */
  async checkSilence(settings: AlertSettings): Promise<void> {
    const { guildId } = settings;
    const silenceMs = settings.silenceHours * (this.deps.hourMs ?? HOUR_MS);
    for (const hook of await this.deps.hooks.listForGuild(guildId)) {
      if (hook.webhookId === null) continue;
      const key = incidentKey(guildId, 'silence', hook.hookId);
      const open = this.incidents.find(guildId, 'silence', hook.hookId);
      const heardAt = lastHeardAt(hook, await this.deps.activity.get(hook.hookId));
      if (open && heardAt > open.openedAt) {
        await this.incidents.resolve(key);
        continue;
      }
      if (!silenceTestDue(heardAt, this.deps.clock(), silenceMs, open)) continue;
      // Known to be switched off, and alerted as such: that is why it is silent.
      if (this.incidents.find(guildId, 'switched-off', hook.hookId)) continue;
      // The silence alert says it when the test finds the webhook switched off, and offers Re-enable.
      await this.whileProbing([hook.hookId], async () => {
        const probe = await probeWebhook(this.deps.probe, requireServiceId(hook));
        if (probe.arrived) return this.incidents.resolve(key);
        return this.incidents.raise(guildId, 'silence', hook.hookId, {
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
  async recover(downSince: number, backAt: number): Promise<void> {
    const byGuild = new Map<string, StoredHook[]>();
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
      await saveRecoveryReport(this.deps.documents, report);
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

  async checkRefusals(hookId: string): Promise<void> {
    const hook = await this.deps.hooks.get(hookId);
    if (!hook) return;
    const activity = await this.deps.activity.get(hookId);
    const key = incidentKey(hook.guildId, 'refusals', hookId);
    if (activity.refusedInARow >= STREAK_WARNING) {
      await this.incidents.raise(hook.guildId, 'refusals', hookId, {
        label: `\`${webhookName(hook)}\``,
        count: activity.refusedInARow,
        escalated: activity.refusedInARow >= STREAK_ESCALATION,
        detail: (activity.lastRefusal ?? 'unknown').replace(/_/g, ' '),
      });
    } else {
      await this.incidents.resolve(key);
    }
  }

  async checkIntakeFailures(hookId: string): Promise<void> {
    const hook = await this.deps.hooks.get(hookId);
    if (!hook) return;
    const streak = this.deps.intakeFailures.streakOf(hookId);
    if (streak && streak.count >= STREAK_WARNING) {
      await this.incidents.raise(hook.guildId, 'intake-errors', hookId, {
        label: `\`${webhookName(hook)}\``,
        count: streak.count,
        escalated: streak.count >= STREAK_ESCALATION,
        detail: streak.detail,
      });
    } else {
      await this.incidents.resolve(incidentKey(hook.guildId, 'intake-errors', hookId));
    }
  }

  /** Channels Discord refuses and entries held, in a server with an alert channel. */
  async checkFeed(guildId: string): Promise<void> {
    if (!(await this.deps.settings.get(guildId))) return;
    const status = await this.deps.deliveries.statusOf(guildId);
    const broken = new Set<string>();
    for (const channel of status.broken) {
      broken.add(channel.channelId);
      await this.incidents.raise(guildId, 'channel', channel.channelId, {
        label: `<#${channel.channelId}>`,
        count: 0,
        escalated: false,
        detail: `Discord answers ${channel.status} (${channel.reason})`,
      });
    }
    for (const incident of this.incidents.in(guildId)) {
      if (incident.type === 'channel' && !broken.has(incident.subject)) await this.incidents.resolve(keyOf(incident));
    }
    const held = describeHeld(status);
    if (held.count > 0) {
      const finding = { label: '', count: held.count, escalated: false, detail: held.detail };
      await this.incidents.raise(guildId, 'held', '', finding);
    } else {
      await this.incidents.resolve(incidentKey(guildId, 'held', ''));
    }
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
}
