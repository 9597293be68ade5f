import type { Outbox } from '../store/outbox.js';
import type { SeenDeliveries } from '../store/seen-deliveries.js';

export type AcceptOutcome = 'accepted' | 'duplicate';

export interface AcceptInput {
  hookId: string;
  guildId: string;
  deliveryId: string;
  event: string;
  rawBody: string;
  receivedAt: number;
}

/**
 * The intake's last step: a delivery id is posted once. An id is a duplicate while its entry waits in the
 * outbox, after it was posted (the seen ids), or while another request with the same id is being written
 * (the in-flight map, which makes two concurrent copies produce one entry).
 */
export class DeliveryAcceptor {
  private readonly inFlight = new Map<string, Promise<AcceptOutcome>>();

  constructor(
    private readonly outbox: Outbox,
    private readonly seen: SeenDeliveries,
  ) {}

  /** Resolves once the delivery is durably in the outbox (or known to be there already). */
  async accept(input: AcceptInput): Promise<AcceptOutcome> {
    const key = `${input.hookId}:${input.deliveryId}`;
    const running = this.inFlight.get(key);
    if (running) {
      // If the first copy's write fails, this copy must not be answered 2xx on its behalf: try it afresh.
      const first = await running.catch(() => undefined);
      return first ? 'duplicate' : this.accept(input);
    }
    if (this.outbox.holds(input.hookId, input.deliveryId)) return 'duplicate';

    const write = this.write(input);
    this.inFlight.set(key, write);
    try {
      return await write;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async write(input: AcceptInput): Promise<AcceptOutcome> {
    if (this.seen.has(input.hookId, input.deliveryId)) return 'duplicate';
    await this.outbox.append({
      hookId: input.hookId,
      guildId: input.guildId,
      deliveryId: input.deliveryId,
      event: input.event,
      rawBody: input.rawBody,
      receivedAt: input.receivedAt,
    });
    return 'accepted';
  }
}
