import { setTimeout as sleep } from 'node:timers/promises';

import type { FakeService } from '../fakes/service/index.js';
import { describeEvent } from '../scripts/simulate/describe-event.js';
import { storyEndingAt } from '../scripts/simulate/sample-events.js';
import type { ServiceEvent } from '../src/upstream/schemas.js';

export interface PlayerOptions {
  service: FakeService;
  /** The game server of the key the admin set up: its webhooks get the deliveries. */
  serverId: string;
  /** Pause between two events. */
  intervalMs: number;
  /** The first story's seed; each later story takes the next one, so every delivery id is new. */
  seed: number;
  signal: AbortSignal;
  say: (line: string) => void;
  /** Called with each event before it is delivered. */
  onEvent?: (event: ServiceEvent) => void;
}

/** Pause between two stories, in event intervals: a breath between sessions. */
const STORY_GAP_INTERVALS = 3;

/** Resolves after `ms`, or false at once when the demo stops. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/**
 * Plays generated stories through the fake service, one event at a time, until `signal` aborts: each story is a
 * session (start, clock-ins, cases and a void, a modcall, clock-outs, the end with stats) that "happened" over
 * the last couple of hours, its last event timed for the moment it is delivered.
 */
export async function playStories(options: PlayerOptions): Promise<void> {
  const { service, serverId, intervalMs, signal, say } = options;
  for (let story = 0; !signal.aborted; story += 1) {
    const seed = options.seed + story;
    const playTime = (events: number) => (events - 1) * intervalMs;
    const length = storyEndingAt(seed, 0, serverId).length;
    const events = storyEndingAt(seed, Date.now() + playTime(length), serverId);
    say(
      `story ${story + 1}: a session on game server ${serverId}, ${events.length} events, one every ${intervalMs / 1000} s`,
    );
    for (const event of events) {
      if (signal.aborted) return;
      options.onEvent?.(event);
      const started = performance.now();
      const records = await service.emit(event);
      const took = Math.round(performance.now() - started);
      const answers = records.map((record) =>
        record.ok ? `${record.status}` : `FAILED ${record.status ?? record.failure}`,
      );
      say(
        `  → ${event.event.padEnd(15)} ${describeEvent(event)}  [signed delivery answered ${answers.join(', ') || 'by nobody'} in ${took} ms]`,
      );
      if (!(await pause(intervalMs, signal))) return;
    }
    if (!(await pause(intervalMs * STORY_GAP_INTERVALS, signal))) return;
  }
}
