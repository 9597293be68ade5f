import { describe, expect, it } from 'vitest';

import { recordUpdateOf, tellsRecord } from '../../../src/upstream/record-update.js';
import { SAMPLE_DELIVERIES } from '../../fixtures/deliveries.js';

describe('the record update a delivery carries', () => {
  it('reads each documented event into an update', () => {
    for (const envelope of Object.values(SAMPLE_DELIVERIES)) {
      expect(tellsRecord(envelope.event)).toBe(true);
      expect(recordUpdateOf(envelope)).toMatchObject({ at: expect.any(Number) as number });
    }
    expect(tellsRecord('ping')).toBe(false);
    const created = SAMPLE_DELIVERIES['case.created'].data.case;
    expect(recordUpdateOf(SAMPLE_DELIVERIES['case.created'])).toEqual({
      kind: 'case',
      number: created.number,
      at: created.createdAt,
      type: 'warn',
      targetId: created.target.robloxId,
      targetName: created.target.name,
      moderatorId: created.moderator.discordId,
      moderatorName: created.moderator.name,
      reason: created.reason,
      createdAt: created.createdAt,
      evidence: JSON.stringify(created.evidence),
    });
    const ended = SAMPLE_DELIVERIES['shift.ended'].data.shift;
    expect(recordUpdateOf(SAMPLE_DELIVERIES['shift.ended'])).toMatchObject({
      kind: 'shift',
      id: ended.id,
      at: ended.startedAt,
      endedAt: ended.endedAt,
      seconds: ended.seconds,
    });
    const modcall = SAMPLE_DELIVERIES.modcall;
    expect(recordUpdateOf(modcall)).toEqual({
      kind: 'modcall',
      callerId: modcall.data.caller.robloxId,
      callerName: modcall.data.caller.name,
      at: modcall.data.at,
    });
  });

  it('is lenient: wrong-typed fields are left out, a thing without its key carries nothing', () => {
    const envelope = { id: 'd1', event: 'case.voided', server: '1', at: 5_000 };
    expect(recordUpdateOf({ ...envelope, data: { case: { number: 7, type: 42, reason: null } } })).toEqual({
      kind: 'case',
      number: 7,
      at: 5_000,
      type: '42',
    });
    expect(recordUpdateOf({ ...envelope, data: { case: { type: 'warn' } } })).toBeUndefined();
    expect(recordUpdateOf({ ...envelope, data: 'not an object' })).toBeUndefined();
    expect(recordUpdateOf({ ...envelope, event: 'modcall', data: { caller: {} } })).toBeUndefined();
    expect(recordUpdateOf({ ...envelope, event: 'ping', data: {} })).toBeUndefined();
    // A shift that ended, told without its start: it began seconds before it ended.
    expect(
      recordUpdateOf({ ...envelope, event: 'shift.ended', data: { shift: { id: 3, endedAt: 100_000, seconds: 60 } } }),
    ).toMatchObject({ at: 40_000 });
    // Text longer than a lookup shows is cut to what the record keeps.
    const long = recordUpdateOf({ ...envelope, data: { case: { number: 1, reason: 'x'.repeat(5_000) } } });
    expect(long?.kind === 'case' ? long.reason?.length : 0).toBe(1_000);
  });

  it('drops control characters from every text, keeping tab and line breaks in a reason only', () => {
    const envelope = { id: 'd1', event: 'case.created', server: '1', at: 5_000 };
    const target = { robloxId: '90\u000001', name: 'Bob\u0000\tby\n' };
    const moderator = { discordId: '4\u001f00', name: 'Mod\rMia' };
    const reason = 'spam\u0000\u0007 in\tchat\r\nagain\u001b';
    expect(recordUpdateOf({ ...envelope, data: { case: { number: 1, target, moderator, reason } } })).toEqual({
      kind: 'case',
      number: 1,
      at: 5_000,
      targetId: '9001',
      targetName: 'Bobby',
      moderatorId: '400',
      moderatorName: 'ModMia',
      reason: 'spam in\tchat\r\nagain',
    });
    const caller = { robloxId: '7\u00007', name: 'Cal\u0000ler\u001f' };
    expect(recordUpdateOf({ ...envelope, event: 'modcall', data: { caller, at: 9 } })).toEqual({
      kind: 'modcall',
      callerId: '77',
      callerName: 'Caller',
      at: 9,
    });
  });
});
