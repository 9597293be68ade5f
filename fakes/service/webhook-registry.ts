import { randomBytes } from 'node:crypto';

/** Webhooks per server key (§8). */
export const MAX_WEBHOOKS_PER_KEY = 3;
/** Failed deliveries in a row after which a webhook is switched off (§3, §8). */
export const MAX_CONSECUTIVE_FAILURES = 20;

/** A webhook as the fake keeps it, secret included. */
export interface FakeWebhook {
  id: string;
  /** The game server (owner of the key) it belongs to. */
  serverId: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** Failed deliveries since the last success or enable. */
  consecutiveFailures: number;
  /** Milliseconds since the Unix epoch. */
  createdAt: number;
  secret: string;
}

/** A webhook without its secret: what inspection returns, so printing it in a test log leaks nothing. */
export type WebhookView = Omit<FakeWebhook, 'secret'>;

/** The fake's webhooks and their on/off state machine (§3). */
export class WebhookRegistry {
  private readonly byId = new Map<string, FakeWebhook>();

  /** Adds a webhook, or says `limit` when the server already has {@link MAX_WEBHOOKS_PER_KEY}. */
  create(serverId: string, url: string, events: string[], now: number): FakeWebhook | 'limit' {
    if (this.ownedBy(serverId).length >= MAX_WEBHOOKS_PER_KEY) return 'limit';
    const webhook: FakeWebhook = {
      id: `wh_${randomBytes(8).toString('hex')}`,
      serverId,
      url,
      events,
      enabled: true,
      consecutiveFailures: 0,
      createdAt: now,
      secret: randomBytes(32).toString('hex'),
    };
    this.byId.set(webhook.id, webhook);
    return webhook;
  }

  get(id: string): FakeWebhook | undefined {
    return this.byId.get(id);
  }

  /** Looks a webhook up, failing loudly: a test naming a webhook that does not exist has a bug. */
  require(id: string): FakeWebhook {
    const webhook = this.byId.get(id);
    if (!webhook) throw new Error(`the fake service has no webhook ${id}`);
    return webhook;
  }

  /** The server's webhooks, oldest first. */
  ownedBy(serverId: string): FakeWebhook[] {
    return [...this.byId.values()].filter((webhook) => webhook.serverId === serverId);
  }

  list(): WebhookView[] {
    return [...this.byId.values()].map(({ secret: _secret, ...view }) => ({ ...view, events: [...view.events] }));
  }

  /** Switches a webhook on with a clean failure count (POST /webhooks/:id/enable). */
  enable(id: string): void {
    const webhook = this.require(id);
    webhook.enabled = true;
    webhook.consecutiveFailures = 0;
  }

  /** Switches a webhook off as if it had failed too often: a shortcut for tests of the re-enable path. */
  disable(id: string): void {
    const webhook = this.require(id);
    webhook.enabled = false;
    webhook.consecutiveFailures = MAX_CONSECUTIVE_FAILURES;
  }

  /** Counts a delivery's outcome: a success clears the count, the 20th failure in a row switches it off. */
  recordOutcome(id: string, ok: boolean): void {
    const webhook = this.require(id);
    if (ok) {
      webhook.consecutiveFailures = 0;
      return;
    }
    webhook.consecutiveFailures += 1;
    if (webhook.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) webhook.enabled = false;
  }
}
