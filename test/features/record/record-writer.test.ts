import { describe, expect, it } from 'vitest';

import { RECORD_SLICE, RecordWriter } from '../../../src/features/record/record-writer.js';
import type { CommunityRecord, RecordingPass } from '../../../src/features/record/store/community-record.js';
import { captureLogs } from '../../helpers/capture-logs.js';
import { ManualTime } from '../../helpers/manual-time.js';

const empty = (): RecordingPass => ({
  recorded: 0,
  skipped: 0,
  setAside: 0,
  givenUp: 0,
  guilds: [],
  shiftGuilds: [],
  sessionGuilds: [],
});

/** A record whose store holds `waiting` updates, failing the passes listed in `failing` (1-based). */
function recordWith(waiting: number, failing: number[] = []) {
  let passes = 0;
  let left = waiting;
  const community: Pick<CommunityRecord, 'recordPending' | 'retrySetAside'> = {
    retrySetAside: () => Promise.resolve(empty()),
    recordPending(limit) {
      passes += 1;
      if (failing.includes(passes)) return Promise.reject(new Error('connection terminated'));
      const recorded = Math.min(limit, left);
      left -= recorded;
      return Promise.resolve({ ...empty(), recorded });
    },
  };
  return { community, left: () => left, passes: () => passes };
}

/** Lets the tick's work (a few promise turns and a setImmediate) finish. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe("the record's writer", () => {
  it('works off a backlog a slice at a time and stops at the first slice that is not full', async () => {
    const store = recordWith(RECORD_SLICE * 2 + 5);
    const time = new ManualTime();
    const writer = new RecordWriter({ community: store.community, timers: time, logger: captureLogs().logger });
    expect(await writer.write()).toBe(RECORD_SLICE * 2 + 5);
    expect(store.passes()).toBe(3);
  });

  it('logs a store that fails and tries again at the next tick, losing nothing', async () => {
    const store = recordWith(10, [1]);
    const time = new ManualTime();
    const logs = captureLogs();
    const writer = new RecordWriter({
      community: store.community,
      timers: time,
      logger: logs.logger,
      writeEveryMs: 1_000,
    });
    writer.start();
    await time.advance(1_000, settle);
    expect(store.left()).toBe(10);
    expect(logs.text()).toContain('recording failed; retried at the next tick');
    expect(logs.text()).toContain('connection terminated');
    await time.advance(1_000, settle);
    expect(store.left()).toBe(0);
    await writer.stop();
  });
});

describe("the record's writer and the deliveries it sets aside", () => {
  it('tries those due first, goes on past a slice that set one aside, and logs it', async () => {
    const calls: string[] = [];
    const passes = [
      { ...empty(), recorded: RECORD_SLICE - 1, setAside: 1, guilds: ['g1'] },
      { ...empty(), recorded: 5, guilds: ['g2'] },
    ];
    const community: Pick<CommunityRecord, 'recordPending' | 'retrySetAside'> = {
      retrySetAside: () => {
        calls.push('retry');
        return Promise.resolve({ ...empty(), recorded: 1, givenUp: 1, guilds: ['g9'] });
      },
      recordPending: () => {
        calls.push('pending');
        return Promise.resolve(passes.shift() ?? empty());
      },
    };
    const changed: string[][] = [];
    const logs = captureLogs();
    const writer = new RecordWriter({
      community,
      timers: new ManualTime(),
      logger: logs.logger,
      onRecordChanged: (guildIds) => changed.push([...guildIds]),
    });
    expect(await writer.write()).toBe(1 + RECORD_SLICE - 1 + 5);
    expect(calls).toEqual(['retry', 'pending', 'pending']);
    expect(changed).toEqual([['g9'], ['g1'], ['g2']]);
    expect(logs.text()).toContain('deliveries set aside: the community record could not merge them');
    expect(logs.text()).toContain('"setAside":1');
    expect(logs.text()).toContain('given up, left out of the community record');
  });
});

describe("the record's writer and the shifts it merges", () => {
  it('tells which guilds had a shift change merged, and which had anything, slice by slice', async () => {
    const passes = [
      { ...empty(), recorded: RECORD_SLICE, guilds: ['g1', 'g2', 'g3'], shiftGuilds: ['g1', 'g2'] },
      { ...empty(), recorded: 3, guilds: ['g3'] },
    ];
    const community: Pick<CommunityRecord, 'recordPending' | 'retrySetAside'> = {
      retrySetAside: () => Promise.resolve(empty()),
      recordPending: () => Promise.resolve(passes.shift() ?? empty()),
    };
    const told: string[][] = [];
    const changed: string[][] = [];
    const writer = new RecordWriter({
      community,
      timers: new ManualTime(),
      logger: captureLogs().logger,
      onShiftsChanged: (guildIds) => told.push([...guildIds]),
      onRecordChanged: (guildIds) => changed.push([...guildIds]),
    });
    expect(await writer.write()).toBe(RECORD_SLICE + 3);
    expect(told).toEqual([['g1', 'g2']]);
    expect(changed).toEqual([['g1', 'g2', 'g3'], ['g3']]);
  });
});
