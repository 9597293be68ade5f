import type { SignatureFailure } from '../upstream/signature.js';

/** Whether a webhook was on or off when this process last learnt it, and when. */
export interface KnownWebhookState {
  enabled: boolean;
  /** Milliseconds since the Unix epoch. */
  at: number;
}

/** What this process saw of one hook since it started (shown by /webhook list and /status). */
export interface HookActivityRecord {
  lastDeliveryAt: number | undefined;
  lastEvent: string | undefined;
  /** Deliveries refused for a bad signature or timestamp. */
  refused: number;
  lastRefusal: SignatureFailure | undefined;
  /**
   * On/off as last learnt here: on after a registration or an enable, off when the service says so. The service
   * documents no way to read a webhook, so this is all anyone can know; undefined until learnt.
   */
  state: KnownWebhookState | undefined;
}

type PingListener = (outcome: PingOutcome) => void;

/** How a delivery awaited by /webhook test turned out at the intake. */
export type PingOutcome = { ok: true; event: string; at: number } | { ok: false; reason: SignatureFailure; at: number };

/**
 * Per-hook activity (deliveries seen by the intake, on/off learnt by the commands), kept in memory: it is for
 * admins' eyes, and a restart starting it afresh loses nothing that matters. Also lets /webhook test wait for
 * the service's ping.
 */
export class HookActivity {
  private readonly records = new Map<string, HookActivityRecord>();
  private readonly waiters = new Map<string, Set<PingListener>>();

  get(hookId: string): HookActivityRecord {
    return (
      this.records.get(hookId) ?? {
        lastDeliveryAt: undefined,
        lastEvent: undefined,
        refused: 0,
        lastRefusal: undefined,
        state: undefined,
      }
    );
  }

  /** What the service said (or a registration or enable implied) about the webhook's on/off state. */
  recordState(hookId: string, enabled: boolean, at: number): void {
    this.records.set(hookId, { ...this.get(hookId), state: { enabled, at } });
  }

  /** Forgets everything about a hook removed here. */
  forget(hookId: string): void {
    this.records.delete(hookId);
  }

  recordAccepted(hookId: string, event: string, at: number): void {
    this.records.set(hookId, { ...this.get(hookId), lastDeliveryAt: at, lastEvent: event });
    this.notify(hookId, { ok: true, event, at });
  }

  recordRefused(hookId: string, reason: SignatureFailure, at: number): void {
    const record = this.get(hookId);
    this.records.set(hookId, { ...record, refused: record.refused + 1, lastRefusal: reason });
    this.notify(hookId, { ok: false, reason, at });
  }

  /**
   * Resolves with the next delivery outcome for `hookId` that `accept` takes (e.g. a verified non-feed event,
   * or a refusal), or undefined after `timeoutMs`.
   */
  waitFor(
    hookId: string,
    accept: (outcome: PingOutcome) => boolean,
    timeoutMs: number,
  ): Promise<PingOutcome | undefined> {
    return new Promise((resolve) => {
      const listeners = this.waiters.get(hookId) ?? new Set<PingListener>();
      this.waiters.set(hookId, listeners);
      const finish = (outcome: PingOutcome | undefined) => {
        clearTimeout(timer);
        listeners.delete(listener);
        if (listeners.size === 0) this.waiters.delete(hookId);
        resolve(outcome);
      };
      const listener: PingListener = (outcome) => {
        if (accept(outcome)) finish(outcome);
      };
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      listeners.add(listener);
    });
  }

  private notify(hookId: string, outcome: PingOutcome): void {
    for (const listener of [...(this.waiters.get(hookId) ?? [])]) listener(outcome);
  }
}
