import type { MessagePayload } from '../discord/message-payload.js';
import type { EventName, EventOf } from '../upstream/schemas.js';

/** What the route decided for this event, beyond the event itself. */
export interface RenderContext {
  /** The role to ping with this event, if the route has one (a snowflake; anything else is ignored). */
  mentionRoleId?: string;
  /**
   * Members to ping instead of the role (a modcall pinging the staff on shift first): only they are named and
   * allowed; the role is neither.
   */
  mentionUserIds?: readonly string[];
}

/** A pure builder of the message for one kind of event. */
export type EventRenderer<N extends EventName> = (event: EventOf<N>, ctx: RenderContext) => MessagePayload;

/** One builder per documented event: a new event name without a builder fails to compile. */
export type EventRendererMap = { [N in EventName]: EventRenderer<N> };
