import type { DeliveryIntake } from '../../src/store/delivery-intake.js';
import { makeFeedDelivery } from './feed-deliveries.js';

/**
 * Fills the outbox of the backlog benchmarks straight through the store's `accept`, the call the intake makes
 * once a delivery is verified: 100,000 signed HTTP requests would take minutes and measure the intake, not the
 * backlog. Each entry is a real `case.created` body under an id of its own; only the stored event name differs
 * (`backlog.<i>`, the names taking turns), so the guild's routes spread the entries over one channel per name.
 */
export interface BacklogFill {
  /** Event names, routed to one channel each. */
  events: string[];
  /** Ids are `<idPrefix>-<n>` for n from `first`, `count` of them. */
  idPrefix: string;
  first: number;
  count: number;
  /**
   * Accepts in flight at once: the fill goes in slices of this many, each one store transaction (the whole fill
   * at once would hold every body in memory until one huge commit). Where the bot's memory is read after the
   * fill, it is the intake's own width (the signed windows' 10): 500 in flight made V8's old generation peak at
   * 50-60 MB of short-lived garbage, whose pages V8 then keeps for reuse (an idle bot does not give them back),
   * and that peak, not the backlog, was what backlog.rss_mb_per_100k read (docs/benchmarks.md). A store seeded
   * before the bot starts fills wider, for speed.
   */
  inFlight: number;
}

/** The id of entry `n` of a fill (what its embed's footer shows once posted). */
export function backlogDeliveryId(idPrefix: string, n: number): string {
  return `${idPrefix}-${n}`;
}

/** Accepts the fill's entries for the hook `owner`; throws if the store calls any of them a duplicate. */
export async function fillBacklog(
  queue: Pick<DeliveryIntake, 'accept'>,
  owner: { hookId: string; guildId: string },
  fill: BacklogFill,
): Promise<void> {
  for (let from = 0; from < fill.count; from += fill.inFlight) {
    const slice: Array<Promise<string>> = [];
    for (let i = from; i < Math.min(fill.count, from + fill.inFlight); i += 1) {
      const n = fill.first + i;
      const deliveryId = backlogDeliveryId(fill.idPrefix, n);
      slice.push(
        queue.accept({
          hookId: owner.hookId,
          guildId: owner.guildId,
          deliveryId,
          event: fill.events[n % fill.events.length] ?? 'backlog',
          rawBody: makeFeedDelivery('case.created', deliveryId, n).body,
          receivedAt: Date.now(),
        }),
      );
    }
    const duplicates = (await Promise.all(slice)).filter((outcome) => outcome !== 'accepted').length;
    if (duplicates > 0) throw new Error(`the store took ${duplicates} fill entries for duplicates`);
  }
}
