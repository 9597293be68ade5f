import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { AlertDesk } from './alert-desk.js';
import { incidentKey, keyOf, type Incident, type IncidentStore, type IncidentType } from './incidents.js';

/** What a check found about one subject: an incident to open or update, with these facts. */
export interface Finding {
  label: string;
  count: number;
  escalated: boolean;
  detail: string;
}

export interface OpenIncidentsDeps {
  incidents: IncidentStore;
  desk: AlertDesk;
  clock: Clock;
  logger: Logger;
}

/**
 * The alert decisions: an incident is opened or updated when a check finds a problem and resolved when it finds
 * it gone, and its alert message is brought up to date only when what the alert shows changed. The open ones
 * are also kept in memory by guild: checks run for every accepted delivery, and most guilds have none open.
 */
export class OpenIncidents {
  private readonly open = new Map<string, Map<string, Incident>>();

  constructor(private readonly deps: OpenIncidentsDeps) {}

  /** Forgets every incident known here (the monitor reads them again from the store). */
  clear(): void {
    this.open.clear();
  }

  /** Knows of an open incident (read from the store, or just updated). */
  remember(incident: Incident): void {
    let byKey = this.open.get(incident.guildId);
    if (!byKey) {
      byKey = new Map();
      this.open.set(incident.guildId, byKey);
    }
    byKey.set(keyOf(incident), incident);
  }

  /** The incidents open in a server. */
  in(guildId: string): Incident[] {
    return [...(this.open.get(guildId)?.values() ?? [])];
  }

  /** The servers with an incident open. */
  guilds(): string[] {
    return [...this.open.keys()];
  }

  /** The open incident of `type` about `subject` in a server, if there is one. */
  find(guildId: string, type: IncidentType, subject: string): Incident | undefined {
    return this.open.get(guildId)?.get(incidentKey(guildId, type, subject));
  }

  /**
   * Opens the incident, or updates it; the alert is edited (soon, not awaited) only when what it shows changed.
   */
  async raise(guildId: string, type: IncidentType, subject: string, finding: Finding): Promise<void> {
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
    this.remember(stored);
    // The alert is brought up to date beside the checks: a server whose alert channel is slow or refuses the
    // bot holds back no other server's checks (the monitor's settled() waits for it).
    if (changed) void this.deps.desk.sync(key);
  }

  /** Resolves the incident of `key`, if it is open, and edits its alert to say so (soon, not awaited). */
  async resolve(key: string): Promise<void> {
    const guildId = key.slice(0, key.indexOf(':'));
    const known = this.open.get(guildId)?.get(key);
    // Nothing open here: no read, no write (this runs for every accepted delivery of a guild with an incident).
    if (!known) return;
    const now = this.deps.clock();
    const stored = await this.deps.incidents.update(key, (current) =>
      current && current.resolvedAt === null ? { ...current, resolvedAt: now, updatedAt: now } : current,
    );
    this.forget(guildId, key);
    if (stored) {
      this.deps.logger.info({ guildId, incident: key }, 'feed health incident resolved');
      void this.deps.desk.sync(key);
    }
  }

  /** Adds what an admin did from an alert's buttons to the open incidents of that webhook, and edits them. */
  async noteAction(guildId: string, hookId: string, line: string): Promise<void> {
    for (const incident of this.in(guildId).filter((open) => open.subject === hookId)) {
      const key = keyOf(incident);
      const stored = await this.deps.incidents.update(key, (current) =>
        current && current.resolvedAt === null
          ? { ...current, actions: [...current.actions, line].slice(-5) }
          : current,
      );
      if (stored?.resolvedAt === null) this.remember(stored);
      await this.deps.desk.sync(key);
    }
  }

  private forget(guildId: string, key: string): void {
    const byKey = this.open.get(guildId);
    byKey?.delete(key);
    if (byKey?.size === 0) this.open.delete(guildId);
  }
}
