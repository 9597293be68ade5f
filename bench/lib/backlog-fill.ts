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
}

/**
 * Accepted in slices, each in one store transaction: the whole fill at once would hold every body in memory
 * until one huge commit, which is neither what the intake does nor what the memory figure should see.
 */
const SLICE = 500;

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
  for (let from = 0; from < fill.count; from += SLICE) {
    const slice: Array<Promise<string>> = [];
    for (let i = from; i < Math.min(fill.count, from + SLICE); i += 1) {
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
