import { randomUUID } from 'node:crypto';

import type { Clock } from '../../src/base/clock.js';
import { signDelivery } from '../../src/upstream/signature.js';
import type { FakeWebhook, WebhookRegistry } from './webhook-registry.js';

/** A delivery body (§2.5); extra members are sent as they are. */
export interface DeliveryEnvelope {
  id: string;
  event: string;
  server: string;
  at: number;
  data: unknown;
  [extra: string]: unknown;
}

/** Why a delivery counted as failed: a non-2xx answer, no answer within the deadline, or no connection. */
export type DeliveryFailure = 'status' | 'timeout' | 'network';

/** One attempt to post a delivery, as the fake's log keeps it (no secret, no signature). */
export interface DeliveryRecord {
  deliveryId: string;
  webhookId: string;
  event: string;
  /** 1 for the first send; a {@link DeliveryEngine.retryFailed} re-send counts up. */
  attempt: number;
  /** When it was sent, by the fake's clock (ms). */
  sentAt: number;
  /** The receiver's status, when it answered in time. */
  status: number | undefined;
  ok: boolean;
  failure: DeliveryFailure | undefined;
}

export interface DeliveryEngineOptions {
  webhooks: WebhookRegistry;
  clock: Clock;
  /** The receiver's answer deadline (§4.3, §8: 5 s). */
  timeoutMs: number;
  fetch: typeof fetch;
}

/** The receiver must answer within this (§4.3). */
export const DELIVERY_TIMEOUT_MS = 5_000;

interface FailedDelivery {
  webhookId: string;
  envelope: DeliveryEnvelope;
  attempt: number;
}

/**
 * Posts signed deliveries (§4.3) and feeds their outcome to the webhook state machine (§3).
 *
 * Retries are left to the test: the service does not document its schedule (§6 gaps), and a hidden timer
 * would make tests flaky. Each delivery is sent once; a failed one waits until {@link retryFailed} re-sends it
 * with the same delivery id, which is what lets a receiver's dedupe be tested.
 */
export class DeliveryEngine {
  private readonly log: DeliveryRecord[] = [];
  private failed: FailedDelivery[] = [];

  constructor(private readonly options: DeliveryEngineOptions) {}

  /** Every attempt so far, oldest first. */
  get records(): readonly DeliveryRecord[] {
    return [...this.log];
  }

  /** Sends an event to a webhook; a switched-off webhook gets nothing and `undefined` is returned. */
  async deliver(webhook: FakeWebhook, envelope: DeliveryEnvelope): Promise<DeliveryRecord | undefined> {
    if (!webhook.enabled) return undefined;
    const record = await this.send(webhook, envelope, 1);
    if (!record.ok) this.failed.push({ webhookId: webhook.id, envelope, attempt: 1 });
    return record;
  }

  /**
   * Sends the ping of POST /webhooks/:id/test. It goes out even to a switched-off webhook (that is how an owner
   * checks a fixed address before enabling) and counts like any delivery, but is never queued for retry.
   */
  async ping(webhook: FakeWebhook, envelope: DeliveryEnvelope): Promise<DeliveryRecord> {
    return this.send(webhook, envelope, 1);
  }

  /**
   * Re-sends every failed delivery whose webhook is on, with the same body and delivery id (fresh timestamp
   * and signature). Deliveries of a switched-off webhook stay queued for after it is enabled.
   */
  async retryFailed(): Promise<DeliveryRecord[]> {
    const queued = this.failed;
    this.failed = [];
    const records: DeliveryRecord[] = [];
    for (const item of queued) {
      const webhook = this.options.webhooks.get(item.webhookId);
      if (!webhook) continue;
      if (!webhook.enabled) {
        this.failed.push(item);
        continue;
      }
      const attempt = item.attempt + 1;
      const record = await this.send(webhook, item.envelope, attempt);
      records.push(record);
      if (!record.ok) this.failed.push({ ...item, attempt });
    }
    return records;
  }

  private async send(webhook: FakeWebhook, envelope: DeliveryEnvelope, attempt: number): Promise<DeliveryRecord> {
    const sentAt = this.options.clock();
    const outcome = await this.post(webhook, envelope, sentAt);
    this.options.webhooks.recordOutcome(webhook.id, outcome.ok);
    const record: DeliveryRecord = {
      deliveryId: envelope.id,
      webhookId: webhook.id,
      event: envelope.event,
      attempt,
      sentAt,
      ...outcome,
    };
    this.log.push(record);
    return record;
  }

  private async post(
    webhook: FakeWebhook,
    envelope: DeliveryEnvelope,
    sentAt: number,
  ): Promise<Pick<DeliveryRecord, 'status' | 'ok' | 'failure'>> {
    const rawBody = JSON.stringify(envelope);
    const timestamp = String(Math.floor(sentAt / 1000));
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await this.options.fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-event': envelope.event,
          'x-service-timestamp': timestamp,
          'x-service-signature': signDelivery(webhook.secret, timestamp, rawBody),
        },
        body: rawBody,
        // A redirect is not a 2xx: the service would count it as a failure rather than follow it.
        redirect: 'manual',
        signal,
      });
      // Only the status matters, but draining the body (still under the deadline) lets the connection be reused.
      await response.arrayBuffer().catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return { status: response.status, ok, failure: ok ? undefined : 'status' };
    } catch {
      return { status: undefined, ok: false, failure: signal.aborted ? 'timeout' : 'network' };
    }
  }
}

/** A fresh delivery id, in the shape the fake uses everywhere. */
export function makeDeliveryId(): string {
  return `dlv_${randomUUID()}`;
}
