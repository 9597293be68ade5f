import type { DeliveryState, HeldKind } from './deliveries.js';
import type { RouteDecision } from './routing-rules.js';

/**
 * Where a delivery is stored, as the `delivery` row's columns say it: waiting in a lane, held (unrouted, or
 * with its broken channel), or kept as posted and muted. Both engines store exactly this, on accept and on a
 * re-route, so the rule below is the only place that decides it.
 */
export interface Placement {
  state: DeliveryState;
  channelId: string | null;
  parkKind: HeldKind | null;
  parkDetail: string | null;
  parkedAt: number | null;
  postedAt: number | null;
  muted: boolean;
  /**
   * False when the body is dropped. A muted delivery keeps it too, for the replay window (`sweepBodies`): never sent
   * here, it may be replayed into a channel a later rule sends its event to.
   */
  keepsBody: boolean;
}

/**
 * The placement of a delivery routed to `decision` at `at`. `brokenReason` is what Discord said of the route's
 * channel while it is marked broken (undefined while it is not): the entry is then held with it, so it is
 * neither posted into a channel that refuses it nor lost. An `off` rule keeps it as posted and counted as muted;
 * no channel at all holds it as unrouted, where an admin sees it and can route it.
 */
export function placementOf(decision: RouteDecision, brokenReason: string | undefined, at: number): Placement {
  if (decision === 'muted') return { ...NOWHERE, state: 'posted', postedAt: at, muted: true, keepsBody: true };
  if (decision === null) return { ...NOWHERE, state: 'parked', parkKind: 'unrouted', parkDetail: '', parkedAt: at };
  const { channelId } = decision;
  if (brokenReason !== undefined) {
    return { ...NOWHERE, state: 'parked', channelId, parkKind: 'broken', parkDetail: brokenReason, parkedAt: at };
  }
  return { ...NOWHERE, state: 'waiting', channelId };
}

const NOWHERE: Placement = {
  state: 'waiting',
  channelId: null,
  parkKind: null,
  parkDetail: null,
  parkedAt: null,
  postedAt: null,
  muted: false,
  keepsBody: true,
};
