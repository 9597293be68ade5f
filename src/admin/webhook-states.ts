/** Whether a webhook was on or off when this process last learnt it, and when. */
export interface KnownWebhookState {
  enabled: boolean;
  /** Milliseconds since the Unix epoch. */
  at: number;
}

/**
 * The on/off state of each webhook as far as this process knows: on after a registration or an enable, off
 * when the service says so. The service documents no way to read a webhook, so /webhook list can only show
 * what was learnt here; a restart forgets it, which /webhook list says rather than guessing.
 */
export class WebhookStates {
  private readonly states = new Map<string, KnownWebhookState>();

  get(hookId: string): KnownWebhookState | undefined {
    return this.states.get(hookId);
  }

  record(hookId: string, enabled: boolean, at: number): void {
    this.states.set(hookId, { enabled, at });
  }

  forget(hookId: string): void {
    this.states.delete(hookId);
  }
}
