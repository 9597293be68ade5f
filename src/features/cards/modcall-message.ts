import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';

import type { MessagePayload } from '../../discord/message-payload.js';
import { fitMessageToLimits } from '../../embeds/limits.js';
import { renderModcall } from '../../embeds/modcall.js';
import { formatEventTime } from '../../embeds/time.js';
import type { RenderContext } from '../../embeds/types.js';
import type { EventOf } from '../../upstream/schemas.js';
import type { ModcallCard } from './modcall-card.js';

/** The buttons of a modcall card: their custom ids are their handlers' (commands/modcall-buttons.ts). */
export const CLAIM_BUTTON_ID = 'cards:claim';
export const RESOLVE_BUTTON_ID = 'cards:resolve';

/** A modcall message: the event's embed, its state, and the buttons while it is open. */
export interface ModcallMessage extends MessagePayload {
  components: Array<APIActionRowComponent<APIButtonComponent>>;
}

/** What a card shows beyond the call itself. */
export type ModcallState = Pick<ModcallCard, 'calls' | 'claimedBy' | 'claimedAt' | 'resolvedBy' | 'resolvedAt'>;

/** The state of a card that was just called in, with nobody on it yet. */
export function freshState(deliveryId: string, at: number): ModcallState {
  return { calls: [{ deliveryId, at }], claimedBy: null, claimedAt: null, resolvedBy: null, resolvedAt: null };
}

/**
 * The modcall's message in its current state: who called (and how often), who claimed it how long after the
 * call, who resolved it. Claim and Resolve stay until it is resolved: a second Claim is answered, not hidden.
 */
export function renderModcallMessage(
  event: EventOf<'modcall'>,
  state: ModcallState,
  ctx: RenderContext,
): ModcallMessage {
  const base = renderModcall(event, ctx);
  const [embed] = base.embeds;
  const first = state.calls[0]?.at ?? event.data.at;
  const last = state.calls.at(-1)?.at ?? first;
  const fields = [...(embed?.fields ?? [])];
  if (state.calls.length > 1) {
    fields.push({ name: 'Calls', value: `Called ${state.calls.length} times, last ${formatEventTime(last)}` });
  }
  fields.push({ name: 'Status', value: describeStatus(state, first) });
  const fitted = fitMessageToLimits({ ...base, embeds: embed ? [{ ...embed, fields }] : [] });
  return { ...fitted, components: state.resolvedAt === null ? [buttons()] : [] };
}

/** The modcall event a card was made from (its first call), for rendering it again. */
export function eventOfCard(card: Pick<ModcallCard, 'server' | 'caller' | 'calls'>): EventOf<'modcall'> {
  const [first] = card.calls;
  const at = first?.at ?? 0;
  return { id: first?.deliveryId ?? '', event: 'modcall', server: card.server, at, data: { caller: card.caller, at } };
}

function describeStatus(state: ModcallState, calledAt: number): string {
  if (state.resolvedBy !== null && state.resolvedAt !== null) {
    const claimed = state.claimedBy ? `claimed by <@${state.claimedBy}>, ` : '';
    return `Resolved by <@${state.resolvedBy}> (${claimed}${formatElapsed(state.resolvedAt - calledAt)} after the call)`;
  }
  if (state.claimedBy !== null && state.claimedAt !== null) {
    return `Claimed by <@${state.claimedBy}> · ${formatElapsed(state.claimedAt - calledAt)} after the call`;
  }
  return 'Waiting for a moderator';
}

/** "45 s", "1 min 12 s", "2 h 05 min": how long after the call, to the second while it is short. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

function buttons(): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, style: ButtonStyle.Primary, label: 'Claim', custom_id: CLAIM_BUTTON_ID },
      { type: ComponentType.Button, style: ButtonStyle.Success, label: 'Resolve', custom_id: RESOLVE_BUTTON_ID },
    ],
  };
}
