import { randomUUID } from 'node:crypto';

import { generateEventStream } from '../../fakes/service/event-stream.js';
import type { EventName, ServiceEvent } from '../../src/upstream/schemas.js';

export interface SampleOptions {
  /** One event name, or `all` for whole stories (a session from start to end). */
  event: EventName | 'all';
  count: number;
  /** The story's clock ends here (ms): every timestamp lies in the recent past, as for a live server. */
  now: number;
  /** The first story's seed; later stories count up from it. */
  seed: number;
  /** The game server id in the envelopes; default one made up per story. */
  serverId?: string;
}

/** The longest loop before giving up on finding `count` events (every story has each event at least once). */
const MAX_STORIES = 10_000;

/**
 * Realistic deliveries from the story generator, each with a fresh delivery id (`dlv_sim_<uuid>`), so a run
 * never collides with an earlier one in the receiver's dedupe. Timestamps are moved so each story ends at `now`.
 */
export function sampleEvents(options: SampleOptions): ServiceEvent[] {
  const events: ServiceEvent[] = [];
  for (let story = 0; events.length < options.count && story < MAX_STORIES; story += 1) {
    for (const event of storyEndingAt(options.seed + story, options.now, options.serverId)) {
      if (options.event !== 'all' && event.event !== options.event) continue;
      events.push({ ...event, id: `dlv_sim_${randomUUID()}` });
      if (events.length === options.count) break;
    }
  }
  return events;
}

/** One story whose last event happens at `end`: generated once to learn its span, then again starting earlier. */
export function storyEndingAt(seed: number, end: number, serverId?: string): ServiceEvent[] {
  const base = { seed, ...(serverId === undefined ? {} : { serverId }) };
  const probe = generateEventStream({ ...base, startAt: 0 });
  const span = probe.at(-1)?.at ?? 0;
  return generateEventStream({ ...base, startAt: end - span });
}

/** How many events one story has; `all` without `--count` sends one whole story. */
export function storyLength(seed: number): number {
  return generateEventStream({ seed }).length;
}
