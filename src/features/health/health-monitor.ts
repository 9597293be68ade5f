import { RerunPerKey } from '../../base/rerun-per-key.js';
import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { StoreSignal, StoreSignals } from '../../store/signals.js';
import type { CoverageShortfall, RoleRefusal } from '../duty/index.js';
import type { PollHealth } from '../releases/index.js';
import type { AlertSettings } from './alert-settings.js';
import { DOWNTIME_WORTH_CHECKING_MS, Heartbeat, HEARTBEAT_EVERY_MS } from './downtime-recovery.js';
import { HealthChecks, type HealthChecksDeps } from './health-checks.js';
import { incidentKey, keyOf, type Incident } from './incidents.js';
import { OpenIncidents, type Finding, type OpenIncidentsDeps } from './open-incidents.js';
import { describeRefusal, describeRoleRefusal, describeShortfall, type DigestRefusal } from './reported-findings.js';

/** How often the feed's channels, held entries and silent webhooks are checked in servers with alerts set. */
export const DEFAULT_CHECK_EVERY_MS = 30_000;

/** What the checks and the incidents need (the store's documents also keep the heartbeat), and what starts them. */
export interface HealthMonitorDeps extends HealthChecksDeps, OpenIncidentsDeps {
  signals: StoreSignals;
  timers: Timers;
  checkEveryMs?: number;
}

/**
 * Watches the feed's health and keeps its incidents (src/features/health/incidents.ts) true: refusal and intake-failure
 * streaks per webhook as they happen (the store's signals, the intake's failure counts), Discord-refused
 * channels and held entries on a timer in servers that set an alert channel. It runs in the one process that
 * holds the gateway (like the slash commands), so each incident is tracked once. This is when the checks run
 * (health-checks.ts); what an incident's alert then shows is open-incidents.ts's decision.
 */
export class HealthMonitor {
  private readonly stops: Array<() => void> = [];
  private timer: unknown;
  private beatTimer: unknown;
  private running = false;
  private readonly heartbeat: Heartbeat;
  private starting: Promise<void> | undefined;
  private readonly underWay = new Set<Promise<void>>();
  private readonly incidents: OpenIncidents;
  private readonly checks: HealthChecks;
  /**
   * A hook's intake failures checked one at a time: a store that fell behind answers a burst of 503s, and each
   * check may write the incident; one check under way and one waiting stand for the whole burst.
   */
  private readonly intakeChecks = new RerunPerKey((hookId) => this.track(this.checks.checkIntakeFailures(hookId)));
  /** The servers whose silent webhooks are being tested now (one test round per server at a time). */
  private readonly silenceChecks = new Set<string>();

  constructor(private readonly deps: HealthMonitorDeps) {
    this.heartbeat = new Heartbeat(deps.documents);
    this.incidents = new OpenIncidents(deps);
    this.checks = new HealthChecks(deps, this.incidents);
  }

  /** Starts watching; never rejects (a store that fails at the start is tried again at the next check). */
  start(): Promise<void> {
    this.starting ??= this.begin();
    return this.starting;
  }

  private async begin(): Promise<void> {
    this.running = true;
    this.deps.desk.resume();
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
    this.incidents.clear();
    const lastBeat = await this.heartbeat.last();
    const now = this.deps.clock();
    await this.heartbeat.beat(now);
    const incidents = await this.deps.incidents.list();
    // Timers and subscriptions only once every read is done: a start that failed leaves nothing to undo.
    this.scheduleBeat();
    this.stops.push(this.deps.signals.subscribe((signal) => this.onSignal(signal)));
    this.stops.push(this.deps.intakeFailures.subscribe((hookId) => void this.intakeChecks.run(hookId)));
    // After a restart: incidents whose message was not posted or edited yet are finished now.
    for (const incident of incidents) {
      if (incident.resolvedAt === null) this.incidents.remember(incident);
      void this.deps.desk.sync(keyOf(incident));
    }
    if (lastBeat !== undefined && now - lastBeat > DOWNTIME_WORTH_CHECKING_MS) {
      // The first checks wait for the recovery: both would send test pings.
      void this.track(this.checks.recover(lastBeat, now)).finally(() => this.schedule(0));
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
    this.deps.desk.stop();
    await this.settled();
  }

  /** Resolves when every check under way and every alert edit it caused has finished (tests). */
  async settled(): Promise<void> {
    await this.starting;
    while (this.underWay.size > 0) await Promise.all([...this.underWay]);
    await this.deps.desk.settled();
  }

  /** The incidents open in a server (for /status). */
  openIn(guildId: string): Incident[] {
    return this.incidents.in(guildId);
  }

  /** Checks everything about one server now (after /alerts set, and from the timer). */
  checkGuild(guildId: string): Promise<void> {
    return this.track(this.checks.checkFeed(guildId));
  }

  /** The release poller's word on a guild: failing polls are an incident, a good poll resolves it. */
  notePoll(guildId: string, health: PollHealth): void {
    if (!health.failing) {
      void this.track(this.incidents.resolve(incidentKey(guildId, 'release-poll', '')));
      return;
    }
    const finding = { label: '', count: health.failures, escalated: false, detail: health.problem };
    void this.track(this.incidents.raise(guildId, 'release-poll', '', finding));
  }

  /**
   * The coverage guard's word on a guild (/duty minimum): a shortfall opens its alert or brings it up to date,
   * null resolves it. Resolves when the incident is stored; its alert follows beside.
   */
  noteCoverage(guildId: string, shortfall: CoverageShortfall | null): Promise<void> {
    return this.noteReported(guildId, 'coverage', shortfall && describeShortfall(shortfall));
  }

  /**
   * The weekly digest's word on a guild: Discord refusing its post in its channel opens an alert (the digest is
   * tried again every two minutes meanwhile), a digest posted resolves it.
   */
  noteDigest(guildId: string, refused: DigestRefusal | null): Promise<void> {
    return this.noteReported(guildId, 'digest', refused && describeRefusal(refused));
  }

  /**
   * The on-duty role keeper's word on a guild (/duty role): a role it may no longer give opens an alert (nobody is
   * given it meanwhile), null (given again, or turned off) resolves it.
   */
  noteDutyRole(guildId: string, refusal: RoleRefusal | null): Promise<void> {
    return this.noteReported(guildId, 'duty-role', refusal && describeRoleRefusal(refusal));
  }

  /** What another feature reports of a guild: a finding opens or updates the guild's incident, null resolves it. */
  private noteReported(
    guildId: string,
    type: 'coverage' | 'digest' | 'duty-role',
    finding: Finding | null,
  ): Promise<void> {
    return this.track(
      (async () => {
        // After a restart, the incidents left open are known only once the monitor has read them.
        await this.starting;
        if (finding === null) return this.incidents.resolve(incidentKey(guildId, type, ''));
        return this.incidents.raise(guildId, type, '', finding);
      })(),
      { guildId },
    );
  }

  /** Posts the server's open incidents that have no message yet (after /alerts set: at once, backing off or not). */
  async postOpen(guildId: string): Promise<void> {
    await Promise.all(this.openIn(guildId).map((incident) => this.deps.desk.sync(keyOf(incident), true)));
  }

  /** Adds what an admin did from an alert's buttons to the open incidents of that webhook, and edits them. */
  noteAction(guildId: string, hookId: string, line: string): Promise<void> {
    return this.incidents.noteAction(guildId, hookId, line);
  }

  private onSignal(signal: StoreSignal): void {
    switch (signal.kind) {
      case 'hook-outcome':
        // A refusal lengthens a streak; the ping arriving ends one, and ends a silence.
        void this.track(this.checks.checkRefusals(signal.hookId).then(() => this.checks.checkHeard(signal.hookId)));
        break;
      case 'work':
        // An accepted delivery ends its hook's refusal streak: only guilds with an open incident pay for a look.
        for (const incident of this.incidents.in(signal.guildId)) void this.track(this.checks.recheck(incident));
        break;
      case 'hook-state':
        void this.track(this.checks.checkSwitchedOff(signal.hookId));
        break;
      case 'settings-changed':
        void this.track(this.checks.checkFeed(signal.guildId));
        break;
      case 'resync':
        this.schedule(0);
        break;
      case 'hook-changed':
      case 'leases':
        break;
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

  private schedule(ms: number): void {
    if (!this.running) return;
    this.deps.timers.clearTimeout(this.timer);
    this.timer = this.deps.timers.setTimeout(() => {
      void this.track(this.checkAll()).finally(() => this.schedule(this.deps.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS));
    }, ms);
  }

  private async checkAll(): Promise<void> {
    // Each server and each incident on its own: one that fails is logged and checked again next time, and the
    // others are checked now. What waits on Discord (the alerts' posts and edits) or on the service (a silent
    // webhook's test ping waits up to 30 s) runs beside this loop, one server's at a time: a server whose alert
    // channel or webhooks do not answer holds back no other server's checks.
    for (const settings of await this.deps.settings.list()) {
      await this.track(this.checks.checkFeed(settings.guildId), { guildId: settings.guildId });
      this.checkSilenceBeside(settings);
    }
    for (const guildId of this.incidents.guilds()) {
      for (const incident of this.incidents.in(guildId)) {
        await this.track(this.checks.recheck(incident), { guildId: incident.guildId, incident: keyOf(incident) });
      }
    }
  }

  /** Tests the server's silent webhooks, unless a round of them is under way (it is looked at next time). */
  private checkSilenceBeside(settings: AlertSettings): void {
    const { guildId } = settings;
    if (this.silenceChecks.has(guildId)) return;
    this.silenceChecks.add(guildId);
    void this.track(this.checks.checkSilence(settings), { guildId }).finally(() => this.silenceChecks.delete(guildId));
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
      .finally(() => this.underWay.delete(tracked));
    this.underWay.add(tracked);
    return tracked;
  }
}
