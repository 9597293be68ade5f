import type { ClassifiedDelivery, ServiceEvent } from '../../upstream/schemas.js';

/**
 * What a delivery is about, when a later delivery may change it: a case (by number), a session or a shift (by
 * id), each within its game server. `origin` events post the card; `final` events turn it into its last state.
 */
export interface CardSubject {
  key: string;
  role: 'origin' | 'final';
}

export function subjectOf(delivery: ClassifiedDelivery): CardSubject | undefined {
  if (delivery.kind !== 'event') return undefined;
  return subjectOfEvent(delivery.event);
}

function subjectOfEvent(event: ServiceEvent): CardSubject | undefined {
  switch (event.event) {
    case 'case.created':
      return { key: `case:${event.server}:${event.data.case.number}`, role: 'origin' };
    case 'case.voided':
      return { key: `case:${event.server}:${event.data.case.number}`, role: 'final' };
    case 'session.started':
      return { key: sessionSubject(event.server, event.data.session.id), role: 'origin' };
    case 'session.ended':
      return { key: sessionSubject(event.server, event.data.session.id), role: 'final' };
    case 'shift.started':
      return { key: `shift:${event.server}:${event.data.shift.id}`, role: 'origin' };
    case 'shift.ended':
      return { key: `shift:${event.server}:${event.data.shift.id}`, role: 'final' };
    case 'modcall':
      return undefined;
  }
}

/** The subject key of a game server's session. */
export function sessionSubject(server: string, sessionId: number): string {
  return `session:${server}:${sessionId}`;
}
