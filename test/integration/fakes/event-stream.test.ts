import { describe, expect, it } from 'vitest';

import { generateEventStream } from '../../../fakes/service/event-stream.js';
import { ServiceEventSchema, type EventOf, type ServiceEvent } from '../../../src/upstream/schemas.js';
import { anyArray } from '../../helpers/matchers.js';

function filterEvents<N extends ServiceEvent['event']>(events: ServiceEvent[], name: N): Array<EventOf<N>> {
  return events.filter((event): event is EventOf<N> => event.event === name);
}

describe('generateEventStream', () => {
  it('produces envelopes that parse with ServiceEventSchema, unchanged, for many seeds', () => {
    for (let seed = 1; seed <= 200; seed++) {
      for (const event of generateEventStream({ seed })) {
        const parsed = ServiceEventSchema.safeParse(event);
        expect(parsed.success, `seed ${seed} ${event.event}`).toBe(true);
        expect(parsed.data).toEqual(event);
        expect(Object.keys(event).sort()).toEqual(['at', 'data', 'event', 'id', 'server']);
      }
    }
  });

  it('tells the story in order', () => {
    const events = generateEventStream({ seed: 7 });
    const names = events.map((event) => event.event).join(' ');
    expect(names).toMatch(
      /^session\.started( shift\.started){2,3} case\.created case\.created modcall case\.created case\.voided( shift\.ended){2,3} session\.ended$/,
    );
    expect(filterEvents(events, 'shift.started')).toHaveLength(filterEvents(events, 'shift.ended').length);

    const [warn, kick, ban] = filterEvents(events, 'case.created').map((event) => event.data.case);
    expect([warn?.type, kick?.type, ban?.type]).toEqual(['warn', 'kick', 'ban']);
    expect(warn?.evidence).toBeNull();
    expect(kick?.evidence).toMatch(/^https:\/\//);
    expect(ban?.evidence).toEqual(expect.objectContaining({ clips: anyArray() }));

    const [voided] = filterEvents(events, 'case.voided');
    expect(voided?.data.case).toMatchObject({ number: warn?.number, status: 'voided', reason: warn?.reason });
    expect(voided?.data.case.voidedAt).toBe(voided?.at);

    const [ended] = filterEvents(events, 'session.ended');
    const [started] = filterEvents(events, 'session.started');
    expect(ended?.data.session.id).toBe(started?.data.session.id);
    expect(ended?.data.stats.cases).toBe(3);
    expect(ended?.data.stats.joins).toBeGreaterThan(0);
  });

  it('keeps one server, unique delivery ids and strictly increasing times', () => {
    const events = generateEventStream({ seed: 3, serverId: '4810000000042' });
    expect(new Set(events.map((event) => event.server))).toEqual(new Set(['4810000000042']));
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    for (let i = 1; i < events.length; i++) expect(events[i]?.at).toBeGreaterThan(events[i - 1]?.at ?? Infinity);
  });

  it('ends every shift it started with matching seconds; one lasts over an hour and spans midnight', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const events = generateEventStream({ seed });
      const starts = new Map(
        filterEvents(events, 'shift.started').map((event) => [event.data.shift.id, event.data.shift]),
      );
      const ends = filterEvents(events, 'shift.ended').map((event) => event.data.shift);
      for (const shift of ends) {
        expect(starts.get(shift.id)?.startedAt).toBe(shift.startedAt);
        expect(shift.seconds).toBe(Math.round((shift.endedAt - shift.startedAt) / 1000));
      }
      const longest = ends.reduce((a, b) => (a.seconds > b.seconds ? a : b));
      expect(longest.seconds).toBeGreaterThan(3600);
      expect(new Date(longest.startedAt).getUTCDate()).not.toBe(new Date(longest.endedAt).getUTCDate());
    }
  });

  it('is deterministic for a seed and start, and differs between seeds', () => {
    const startAt = Date.UTC(2025, 2, 1, 18, 0);
    expect(generateEventStream({ seed: 11, startAt })).toEqual(generateEventStream({ seed: 11, startAt }));
    expect(generateEventStream({ seed: 11 })).not.toEqual(generateEventStream({ seed: 12 }));
    expect(generateEventStream({ seed: 11, startAt })[0]?.at).toBe(startAt);
  });
});
