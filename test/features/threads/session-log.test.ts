import { describe, expect, it } from 'vitest';

import { embedLength, MAX_EMBED_DESCRIPTION_LENGTH, MAX_FIELD_VALUE_LENGTH } from '../../../src/embeds/limits.js';
import type { SessionFacts } from '../../../src/features/record/store/session-facts.js';
import {
  LOG_LINES_PER_MESSAGE,
  LOG_MESSAGES_AT_MOST,
  renderSessionLog,
} from '../../../src/features/threads/session-log.js';
import { renderSessionReport } from '../../../src/features/threads/session-report.js';

const MIN = 60_000;
const START = Date.UTC(2026, 10, 26, 18);
const END = START + 95 * MIN;

function facts(overrides: Partial<SessionFacts> = {}): SessionFacts & { session: { endedAt: number } } {
  return {
    session: {
      server: '42',
      sessionId: 7,
      name: 'Night watch',
      startedAt: START,
      endedAt: END,
      peakPlayers: 28,
      joins: 40,
    },
    cases: [],
    modcalls: [],
    shifts: [],
    ...overrides,
  } as SessionFacts & { session: { endedAt: number } };
}

const longName = 'N'.repeat(300);

describe("a session thread's log", () => {
  it('says so while nothing happened yet', () => {
    const [only, ...rest] = renderSessionLog(facts());
    expect(rest).toEqual([]);
    expect(only?.part).toBe('log:0');
    expect(only?.embed.description).toBe('Nothing yet: cases, modcalls and shifts will show here.');
    expect(only?.embed.footer?.text).toBe('Session 7 · server 42');
  });

  it('shows 25 lines a message, in time order, and past 500 says how many more the record holds', () => {
    const cases = Array.from({ length: 530 }, (_, i) => ({
      at: START + (530 - i) * 1000,
      number: 530 - i,
      type: 'warn',
      targetName: longName,
      moderatorId: '1',
      moderatorName: longName,
      voided: false,
    }));
    const parts = renderSessionLog(facts({ cases }));
    expect(parts).toHaveLength(LOG_MESSAGES_AT_MOST);
    expect(parts.map((part) => part.part)).toEqual(Array.from({ length: 20 }, (_, i) => `log:${i}`));
    expect(parts[1]?.embed.title).toBe('Session log (2)');
    const lines = parts.flatMap((part) => part.embed.description?.split('\n') ?? []);
    expect(lines).toHaveLength(LOG_LINES_PER_MESSAGE * LOG_MESSAGES_AT_MOST + 1);
    expect(lines[0]).toMatch(/\*\*Warn\*\* #1 · N+… by N+…$/);
    expect(lines.at(-2)).toMatch(/#500 /);
    expect(lines.at(-1)).toBe('… and 30 more: see /record for them.');
    for (const part of parts) {
      expect(part.embed.description?.length).toBeLessThanOrEqual(MAX_EMBED_DESCRIPTION_LENGTH);
      expect(embedLength(part.embed)).toBeLessThanOrEqual(6000);
    }
  });

  it('strikes a voided case, names who claimed a modcall and after how long, and marks shifts on and off', () => {
    const [log] = renderSessionLog(
      facts({
        cases: [
          {
            at: START + 5 * MIN,
            number: 9,
            type: 'ban',
            targetName: 'Speedy',
            moderatorId: '1',
            moderatorName: 'Mia',
            voided: true,
          },
        ],
        modcalls: [
          {
            at: START + 10 * MIN,
            calledAt: START + 10 * MIN,
            calls: 1,
            callerName: 'Lost',
            claimedBy: '555',
            claimedAt: START + 12 * MIN,
            resolvedAt: null,
          },
          {
            at: START + 20 * MIN,
            calledAt: START + 20 * MIN,
            calls: 1,
            callerName: null,
            claimedBy: null,
            claimedAt: null,
            resolvedAt: null,
          },
        ],
        // Began before the session: only its end shows.
        shifts: [
          { shiftId: 1, memberId: '555', memberName: 'Jo', startedAt: START - 30 * MIN, endedAt: START + 5 * MIN },
        ],
      }),
    );
    const second = (ms: number) => Math.floor(ms / 1000);
    expect(log?.embed.description?.split('\n')).toEqual([
      `<t:${second(START + 5 * MIN)}:T> ⚪ <@555> off shift`,
      `<t:${second(START + 5 * MIN)}:T> ~~**Ban** #9 · Speedy by Mia~~ (voided)`,
      `<t:${second(START + 10 * MIN)}:T> 📣 Modcall from Lost · claimed by <@555> after 2 min`,
      `<t:${second(START + 20 * MIN)}:T> 📣 Modcall from a player · not claimed`,
    ]);
  });
});

describe('a modcall card of three calls in a session', () => {
  // The card's first call came before the session; two more during it; claimed 5 min after the first.
  const card = {
    at: START + 2 * MIN,
    calledAt: START - MIN,
    calls: 3,
    callerName: 'Lost',
    claimedBy: '555',
    claimedAt: START + 4 * MIN,
    resolvedAt: null,
  };

  it('is one line of the log, its calls counted, its claim timed from its first call', () => {
    const [log] = renderSessionLog(facts({ modcalls: [card] }));
    expect(log?.embed.description).toBe(
      `<t:${Math.floor((START + 2 * MIN) / 1000)}:T> 📣 Modcall from Lost (3 calls) · claimed by <@555> after 5 min`,
    );
  });

  it('is one card answered in the report, once, with its calls said', () => {
    const report = renderSessionReport(facts({ modcalls: [card] }));
    expect(report.fields?.find((field) => field.name === 'Modcalls')?.value).toBe(
      '1 of 1 answered (3 calls) · median time to claim 5 min',
    );
  });
});

describe("a session's after-action report", () => {
  it('gives the duration, players, cases by type, modcalls answered and each member on shift within the session', () => {
    const report = renderSessionReport(
      facts({
        cases: [
          {
            at: START,
            number: 1,
            type: 'warn',
            targetName: null,
            moderatorId: null,
            moderatorName: null,
            voided: false,
          },
          {
            at: START,
            number: 2,
            type: 'warn',
            targetName: null,
            moderatorId: null,
            moderatorName: null,
            voided: false,
          },
          {
            at: START,
            number: 3,
            type: 'kick',
            targetName: null,
            moderatorId: null,
            moderatorName: null,
            voided: false,
          },
          { at: START, number: 4, type: 'ban', targetName: null, moderatorId: null, moderatorName: null, voided: true },
        ],
        modcalls: [
          {
            at: START,
            calledAt: START,
            calls: 1,
            callerName: 'a',
            claimedBy: '1',
            claimedAt: START + 60_000,
            resolvedAt: null,
          },
          {
            at: START,
            calledAt: START,
            calls: 1,
            callerName: 'b',
            claimedBy: '1',
            claimedAt: START + 180_000,
            resolvedAt: null,
          },
          { at: START, calledAt: START, calls: 1, callerName: 'c', claimedBy: null, claimedAt: null, resolvedAt: null },
        ],
        shifts: [
          // Open when the session ended: counted to its end.
          { shiftId: 1, memberId: '10', memberName: 'Ann', startedAt: START - 60 * MIN, endedAt: null },
          { shiftId: 2, memberId: null, memberName: 'Bo', startedAt: START + 30 * MIN, endedAt: START + 50 * MIN },
          { shiftId: 3, memberId: '10', memberName: 'Ann', startedAt: START + 200 * MIN, endedAt: null },
        ],
      }),
    );
    expect(report.title).toBe('After-action report: Night watch');
    expect(Object.fromEntries((report.fields ?? []).map((field) => [field.name, field.value]))).toEqual({
      Duration: '1 h 35 min',
      'Peak players': '28',
      Joins: '40',
      Cases: '2 warns · 1 kick',
      Modcalls: '2 of 3 answered · median time to claim 1 min',
      'Staff on shift': '<@10>: 1 h 35 min\nBo: 20 min',
    });
  });

  it('stays within a field when a hundred members were on shift, and says when the service told no figures', () => {
    const shifts = Array.from({ length: 100 }, (_, i) => ({
      shiftId: i,
      memberId: String(100000000000000000n + BigInt(i)),
      memberName: null,
      startedAt: START,
      endedAt: END,
    }));
    const report = renderSessionReport({
      ...facts({ shifts }),
      session: { ...facts().session, peakPlayers: null, joins: null },
    });
    const staff = report.fields?.find((field) => field.name === 'Staff on shift')?.value ?? '';
    expect(staff.length).toBeLessThanOrEqual(MAX_FIELD_VALUE_LENGTH);
    expect(staff).toMatch(/… and \d+ more$/);
    expect(report.fields?.find((field) => field.name === 'Peak players')?.value).toBe('Not told');
    expect(report.fields?.find((field) => field.name === 'Modcalls')?.value).toBe('None');
  });
});
