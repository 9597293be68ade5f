import { Writable } from 'node:stream';

import { createLogger, type Logger } from '../../src/base/logger.js';

/** A real pino logger whose lines are kept in memory, so tests can assert what was (never) logged. */
export function captureLogs(level = 'debug'): { logger: Logger; lines: string[]; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger(level, sink), lines, text: () => lines.join('\n') };
}
