import { describe, expect, it } from 'vitest';

import { toLoggableError } from '../../../src/discord/log-error.js';

describe('toLoggableError', () => {
  it('keeps name, message, stack, code and status, and nothing else', () => {
    const error = Object.assign(new Error('boom'), { code: 50013, status: 403, requestBody: { json: { token: 'x' } } });
    const loggable = toLoggableError(error);
    expect(loggable).toMatchObject({ type: 'Error', message: 'boom', code: 50013, status: 403 });
    expect(Object.keys(loggable).sort()).toEqual(['code', 'message', 'stack', 'status', 'type']);
  });

  it('blanks out text the user typed wherever it appears', () => {
    const typed = 'usk_pasted_key_0123456789';
    const loggable = toLoggableError(new Error(`cannot use ${typed} here`), [typed]);
    expect(JSON.stringify(loggable)).not.toContain(typed);
    expect(loggable.message).toBe('cannot use [redacted] here');
  });

  it('describes thrown non-errors', () => {
    expect(toLoggableError('text')).toEqual({ type: 'string', message: 'text' });
  });
});
