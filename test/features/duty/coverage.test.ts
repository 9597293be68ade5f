import { describe, expect, it } from 'vitest';

import { CoverageGuard, type CoverageShortfall } from '../../../src/features/duty/coverage-guard.js';
import { judgeCoverage, MINUTE_MS, SESSION_NEVER_ENDED_AFTER_MS } from '../../../src/features/duty/coverage.js';
import type { CoverageSettings } from '../../../src/features/duty/store/duty-store.js';
import type { OpenShift, RunningSession } from '../../../src/features/record/store/record-queries.js';
import { captureLogs } from '../../helpers/capture-logs.js';
import { ManualTime } from '../../helpers/manual-time.js';

const GUILD = '100000000000000001';
const NOW = Date.UTC(2026, 10, 26, 12);
const HOUR = 3_600_000;
const SESSION: RunningSession = { server: 's', sessionId: 1, name: 'Patrol', startedAt: NOW - HOUR };
const MINIMUM = { staff: 3, afterMinutes: 10 };

describe('judgeCoverage', () => {
  it('is covered while no session runs, however few are on shift', () => {
    expect(judgeCoverage({ minimum: MINIMUM, sessions: [], onShift: 0, uncoveredSince: null, now: NOW })).toEqual({
      state: 'covered',
    });
    // A shortfall noted earlier ends with the session.
    expect(judgeCoverage({ minimum: MINIMUM, sessions: [], onShift: 0, uncoveredSince: NOW - HOUR, now: NOW })).toEqual(
      { state: 'covered' },
    );
  });

  it('does not count a session running for over a day (its end never came)', () => {
    const old = { ...SESSION, startedAt: NOW - SESSION_NEVER_ENDED_AFTER_MS - 1 };
    const facts = { minimum: MINIMUM, onShift: 0, uncoveredSince: NOW - HOUR, now: NOW };
    expect(judgeCoverage({ ...facts, sessions: [old] })).toEqual({ state: 'covered' });
    expect(judgeCoverage({ ...facts, sessions: [{ ...old, startedAt: NOW - SESSION_NEVER_ENDED_AFTER_MS }] })).toEqual({
      state: 'alert',
      since: NOW - HOUR,
    });
  });

  it('is covered with at least the minimum on shift', () => {
    const facts = { minimum: MINIMUM, sessions: [SESSION], uncoveredSince: NOW - HOUR, now: NOW };
    expect(judgeCoverage({ ...facts, onShift: 3 })).toEqual({ state: 'covered' });
    expect(judgeCoverage({ ...facts, onShift: 7 })).toEqual({ state: 'covered' });
  });

  it('is short from now when first found short, with the alert due after the wait', () => {
    expect(
      judgeCoverage({ minimum: MINIMUM, sessions: [SESSION], onShift: 2, uncoveredSince: null, now: NOW }),
    ).toEqual({ state: 'short', since: NOW, alertAt: NOW + 10 * MINUTE_MS });
  });

  it('stays short since it was first found short, and is an alert once the wait has passed', () => {
    const facts = { minimum: MINIMUM, sessions: [SESSION], onShift: 1 };
    const since = NOW - 10 * MINUTE_MS;
    expect(judgeCoverage({ ...facts, uncoveredSince: since + 1, now: NOW })).toEqual({
      state: 'short',
      since: since + 1,
      alertAt: NOW + 1,
    });
    expect(judgeCoverage({ ...facts, uncoveredSince: since, now: NOW })).toEqual({ state: 'alert', since });
    expect(judgeCoverage({ ...facts, onShift: 0, uncoveredSince: since - HOUR, now: NOW })).toEqual({
      state: 'alert',
      since: since - HOUR,
    });
  });

  it('alerts at once with a wait of 0, and counts minutes as told', () => {
    const facts = { sessions: [SESSION], onShift: 0, uncoveredSince: null, now: NOW };
    expect(judgeCoverage({ ...facts, minimum: { staff: 1, afterMinutes: 0 } })).toEqual({ state: 'alert', since: NOW });
    expect(judgeCoverage({ ...facts, minimum: { staff: 1, afterMinutes: 5 }, minuteMs: 200 })).toEqual({
      state: 'short',
      since: NOW,
      alertAt: NOW + 1_000,
    });
  });
});

/** A guard over a store and record the test sets, reporting into a list. */
function guardWith(state: { settings: CoverageSettings; sessions: RunningSession[]; open: OpenShift[] }) {
  const time = new ManualTime(NOW);
  const reports: Array<CoverageShortfall | null> = [];
  const writes: Array<number | null> = [];
  const guard = new CoverageGuard({
    duty: {
      coverageOf: () => Promise.resolve(state.settings),
      listGuarded: () => Promise.resolve(state.settings.minimum ? [state.settings] : []),
      setUncoveredSince: (_guildId, since) => {
        writes.push(since);
        state.settings = { ...state.settings, uncoveredSince: since };
        return Promise.resolve();
      },
    },
    record: {
      openShifts: () => Promise.resolve(state.open),
      runningSessions: () => Promise.resolve(state.sessions),
    },
    report: (_guildId, shortfall) => {
      reports.push(shortfall);
      return Promise.resolve();
    },
    timers: time,
    clock: time.now,
    logger: captureLogs().logger,
  });
  return { guard, time, reports, writes, settle: () => guard.idle() };
}

function shift(n: number, startedAt: number): OpenShift {
  return { server: 's', shiftId: n, memberId: String(500 + n), memberName: `m${n}`, startedAt };
}

describe('CoverageGuard', () => {
  it('notes the shortfall, alerts when its wait ends with no change, and forgets a guild with no session', async () => {
    const state = {
      settings: { guildId: GUILD, minimum: { staff: 2, afterMinutes: 10 }, uncoveredSince: null },
      sessions: [SESSION],
      open: [shift(1, NOW - HOUR), shift(2, NOW - 17 * HOUR)],
    };
    const { guard, time, reports, writes, settle } = guardWith(state);
    await guard.start();
    await settle();
    // Shift 2 is open past the "never ended" limit: one of two on shift.
    expect(writes).toEqual([NOW]);
    expect(reports).toEqual([null]);
    await time.advance(10 * MINUTE_MS, settle);
    expect(reports.at(-1)).toEqual({
      minimum: { staff: 2, afterMinutes: 10 },
      onShift: 1,
      since: NOW,
      sessions: [SESSION],
    });
    expect(writes).toEqual([NOW]);

    // The session ends: covered, the alert resolved, the shortfall forgotten, and the guild no longer kept.
    state.sessions = [];
    guard.changed(GUILD);
    await settle();
    expect(reports.at(-1)).toBeNull();
    expect(writes).toEqual([NOW, null]);
    expect(guard.watched()).toEqual([]);
    await guard.stop();
  });
});
