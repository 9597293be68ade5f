import type { DeliveryQueue } from '../../store/deliveries.js';
import type { BotParts, Feature } from '../feature.js';

/** What /feed set, off, clear, default, show and the held entries' Route use, beyond the webhooks' parts. */
export interface RoutingDeps {
  /** The feed's queue: entries held for want of a route are routed again when a rule names their channel. */
  deliveries: DeliveryQueue;
}

/** The guild's routing rules: which event (of which game server, of which case type) goes to which channel. */
export function createRoutingFeature(parts: BotParts): Feature<RoutingDeps> {
  return { deps: { deliveries: parts.store.deliveries } };
}
