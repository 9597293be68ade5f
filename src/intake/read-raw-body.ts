import type { IncomingMessage } from 'node:http';

/** Why a body could not be read. */
export type BodyReadFailure = 'too_large' | 'aborted' | 'encoded';

/** The body, or why there is none to verify. */
export type BodyReadResult = { ok: true; body: Buffer } | { ok: false; reason: BodyReadFailure };

/**
 * The request body exactly as received, whatever the Content-Type (the signature covers the bytes), refused
 * as soon as it passes `limit` bytes: by its Content-Length before reading, or while reading. Bodies with a
 * Content-Encoding are refused: the service signs the bytes it sends, not a decompressed form of them.
 * Never rejects: a client that goes away mid-body is `aborted`. A body refused as too large is left unread (the
 * route drains it and closes the connection after its answer).
 */
export function readRawBody(req: IncomingMessage, limit: number): Promise<BodyReadResult> {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') return Promise.resolve({ ok: false, reason: 'encoded' });
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) return Promise.resolve({ ok: false, reason: 'too_large' });
  // Gone before its body was read (e.g. while the hook was looked up): nothing will come.
  if (req.destroyed) return Promise.resolve({ ok: false, reason: 'aborted' });
  return collectBody(req, limit);
}

/**
 * The body's chunks, gathered with plain listeners: this runs on every delivery, and a `for await` over the
 * request (its async iterator, end-of-stream watcher and a promise per chunk) cost several µs more per delivery
 * (docs/benchmarks.md). The listeners are methods of one object, not named arrow functions: under tsx (the
 * benchmarks, the tests) each named function made per call is renamed with Object.defineProperty, which alone
 * cost more than the read.
 */
function collectBody(req: IncomingMessage, limit: number): Promise<BodyReadResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const listeners = {
      data(this: void, chunk: Buffer): void {
        length += chunk.length;
        if (length > limit) return listeners.settle({ ok: false, reason: 'too_large' });
        chunks.push(chunk);
      },
      end(this: void): void {
        listeners.settle({
          ok: true,
          body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length),
        });
      },
      // An error (the client reset the connection), or a close before the end: the body will not be whole.
      abort(this: void): void {
        listeners.settle({ ok: false, reason: 'aborted' });
      },
      settle(this: void, result: BodyReadResult): void {
        req.off('data', listeners.data);
        req.off('end', listeners.end);
        req.off('error', listeners.abort);
        req.off('close', listeners.abort);
        resolve(result);
      },
    };
    req.on('data', listeners.data);
    req.on('end', listeners.end);
    req.on('error', listeners.abort);
    req.on('close', listeners.abort);
  });
}
