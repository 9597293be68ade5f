import type { MessagePayload } from '../discord/message-payload.js';
import type { ClassifiedDelivery, EventName, EventOf } from '../upstream/schemas.js';
import { renderCaseCreated } from './case-created.js';
import { renderCaseVoided } from './case-voided.js';
import { renderFallback } from './fallback.js';
import { fitMessageToLimits } from './limits.js';
import { renderModcall } from './modcall.js';
import { renderSessionEnded } from './session-ended.js';
import { renderSessionStarted } from './session-started.js';
import { renderShiftEnded } from './shift-ended.js';
import { renderShiftStarted } from './shift-started.js';
import type { EventRendererMap, RenderContext } from './types.js';

/** The builder of each documented event. `satisfies` makes a new event without a builder a compile error. */
export const EVENT_RENDERERS = {
  'case.created': renderCaseCreated,
  'case.voided': renderCaseVoided,
  'session.started': renderSessionStarted,
  'session.ended': renderSessionEnded,
  modcall: renderModcall,
  'shift.started': renderShiftStarted,
  'shift.ended': renderShiftEnded,
} satisfies EventRendererMap;

/**
 * The message for one verified delivery: its event's builder, or the plain fallback for an unknown event or
 * data that did not match. Always within Discord's limits (see fitMessageToLimits).
 */
export function renderDelivery(delivery: ClassifiedDelivery, ctx: RenderContext): MessagePayload {
  return fitMessageToLimits(renderUnfitted(delivery, ctx));
}

function renderUnfitted(delivery: ClassifiedDelivery, ctx: RenderContext): MessagePayload {
  switch (delivery.kind) {
    case 'event':
      return renderEvent(delivery.event.event, delivery.event, ctx);
    case 'other':
      return renderFallback(delivery.envelope, { kind: 'unknown' }, ctx);
    case 'mismatch':
      return renderFallback(delivery.envelope, { kind: 'mismatch', problem: delivery.problem }, ctx);
  }
}

/**
 * Looks the builder up by name. The name is passed next to the event so that TypeScript can relate the
 * builder it picks to the event it gets (a mapped type indexed by a generic key), without a cast.
 */
function renderEvent<N extends EventName>(name: N, event: EventOf<N>, ctx: RenderContext): MessagePayload {
  const render: EventRendererMap[N] = EVENT_RENDERERS[name];
  return render(event, ctx);
}
