import { describe, expect, it } from 'vitest';

import { partsWithReportLast } from '../../../src/features/threads/report-last.js';
import type { ThreadPart } from '../../../src/features/threads/session-log.js';

const drawn = (...names: string[]): ThreadPart[] => names.map((part) => ({ part, embed: { title: part } }));

describe('partsWithReportLast', () => {
  it("gives the report's message to the first part of the log drawn after it; the report is then posted anew", () => {
    expect(partsWithReportLast({ 'log:0': 'm1', report: 'm2' }, drawn('log:0', 'log:1', 'report'))).toEqual({
      'log:0': 'm1',
      'log:1': 'm2',
    });
  });

  it('moves it once when the log grew by two messages: the second is posted, then the report', () => {
    expect(partsWithReportLast({ 'log:0': 'm1', report: 'm2' }, drawn('log:0', 'log:1', 'log:2', 'report'))).toEqual({
      'log:0': 'm1',
      'log:1': 'm2',
    });
  });

  it('moves nothing while the report is not posted, or when every part of the log has its message', () => {
    expect(partsWithReportLast({ 'log:0': 'm1' }, drawn('log:0', 'log:1', 'report'))).toBeUndefined();
    expect(partsWithReportLast({ 'log:0': 'm1', report: 'm2' }, drawn('log:0', 'report'))).toBeUndefined();
  });
});
