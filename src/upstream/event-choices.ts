import { EVENT_NAMES, isEventName, type EventName } from './schemas.js';

/** The choice of /webhook register that subscribes to every event. */
export const ALL_EVENTS = 'all';

/** The events a /webhook register choice stands for; undefined for a value that is not a choice. */
export function expandEventChoice(choice: string): EventName[] | undefined {
  if (choice === ALL_EVENTS) return [...EVENT_NAMES];
  return isEventName(choice) ? [choice] : undefined;
}

/** "all events" for a webhook subscribed to every documented event, else the names joined. */
export function describeEvents(events: readonly string[]): string {
  if (EVENT_NAMES.every((name) => events.includes(name))) return 'all events';
  return events.length === 0 ? 'no events' : events.join(', ');
}

/** Slash command choices: one per documented event, named as the service names them. */
export function eventChoices(): Array<{ name: string; value: string }> {
  return EVENT_NAMES.map((name) => ({ name, value: name }));
}
