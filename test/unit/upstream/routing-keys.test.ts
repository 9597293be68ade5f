import { describe, expect, it } from 'vitest';

import { routingKeysOf } from '../../../src/upstream/routing-keys.js';

describe('routingKeysOf', () => {
  it("reads the game server and a case's type", () => {
    expect(routingKeysOf({ id: '1', event: 'case.created', server: '123', data: { case: { type: 'ban' } } })).toEqual({
      server: '123',
      caseType: 'ban',
    });
    expect(routingKeysOf({ id: '1', event: 'modcall', server: 456, data: { case: { type: 'ban' } } })).toEqual({
      server: '456',
    });
  });

  it('leaves out what is missing or not an id, and never throws on a payload that does not match', () => {
    expect(routingKeysOf({ id: '1', event: 'case.voided', data: { case: null } })).toEqual({});
    expect(routingKeysOf({ id: '1', event: 'case.voided', server: { id: 1 }, data: 'text' })).toEqual({});
    expect(
      routingKeysOf({ id: '1', event: 'case.created', server: 'x'.repeat(65), data: { case: { type: 7 } } }),
    ).toEqual({});
    expect(routingKeysOf({ id: '1', event: 'case.created', server: 1.5 })).toEqual({});
  });

  it('drops control characters from a case type, as a rule could never name them', () => {
    const data = { case: { type: 'w\u0000ar\nn' } };
    expect(routingKeysOf({ id: '1', event: 'case.created', server: '1', data })).toEqual({
      server: '1',
      caseType: 'warn',
    });
    expect(routingKeysOf({ id: '1', event: 'case.created', data: { case: { type: '\u0000' } } })).toEqual({});
  });
});
