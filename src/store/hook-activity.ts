import type { SignatureFailure } from '../upstream/signature.js';

/** Whether a webhook was on or off when the bot last learnt it, and when. */
export interface KnownWebhookState {
  enabled: boolean;
  /** Milliseconds since the Unix epoch. */
  at: number;
}

/** What the bot saw of one hook (shown by /webhook list and /status). */
export interface HookActivity {
  lastDeliveryAt: number | undefined;
  lastEvent: string | undefined;
  /** Deliveries refused for a bad signature or timestamp, in all. */
  refused: number;
  lastRefusal: SignatureFailure | undefined;
  /** Refusals since the last accepted delivery (a streak the service counts toward switching the hook off). */
  refusedInARow: number;
  /**
   * On/off as last learnt: on after a registration or an enable, off when the service says so. The service
   * documents no way to read a webhook, so this is all anyone can know; undefined until learnt.
   */
  state: KnownWebhookState | undefined;
}

/** How a delivery turned out at the intake: what /webhook test waits for. */
export type HookOutcome = { ok: true; event: string; at: number } | { ok: false; reason: SignatureFailure; at: number };

/** Per-hook activity, stored so it survives restarts and is shared by every process. */
export interface HookActivityStore {
  get(hookId: string): Promise<HookActivity>;
  /**
   * The service's verified ping arrived: counted and announced only if the hook is stored when it is (the
   * intake may hold a cached copy of a hook removed since); false, and nothing recorded, when it is not.
   */
  noteAccepted(hookId: string, event: string, at: number): Promise<boolean>;
  noteRefused(hookId: string, reason: SignatureFailure, at: number): Promise<void>;
  /** What the service said (or a registration or enable implied) about the webhook's on/off state. */
  noteState(hookId: string, enabled: boolean, at: number): Promise<void>;
  /** Replaces what is known of a hook by what was read elsewhere (migrate-store: another store's). */
  restore(hookId: string, activity: HookActivity): Promise<void>;
  /** Forgets everything about a hook removed here. */
  forget(hookId: string): Promise<void>;
}

/** The activity of a hook nothing was seen of yet. */
export function emptyHookActivity(): HookActivity {
  return {
    lastDeliveryAt: undefined,
    lastEvent: undefined,
    refused: 0,
    lastRefusal: undefined,
    refusedInARow: 0,
    state: undefined,
  };
}
