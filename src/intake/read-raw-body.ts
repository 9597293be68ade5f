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
  // A small body comes in the packets of its headers: the parser has taken all of it in by the time the route reads
  // it (after its hook lookup), so it is there to take at once, without a round of stream events.
  if (req.complete && req.readableLength <= limit) {
    return Promise.resolve({ ok: true, body: (req.read() as Buffer | null) ?? Buffer.alloc(0) });
  }
  return collectBody(req, limit);
}

/**
 * The body's chunks, gathered with plain listeners: this runs on every delivery, and a `for await` over the
 * request (its async iterator, end-of-stream watcher and a promise per chunk) cost several µs more per delivery
 * (bench/intake-throughput.ts, docs/benchmarks.md).
 */
function collectBody(req: IncomingMessage, limit: number): Promise<BodyReadResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const settle = (result: BodyReadResult) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) return settle({ ok: false, reason: 'too_large' });
      chunks.push(chunk);
    };
    const onEnd = () =>
      settle({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length) });
    // An error (the client reset the connection), or a close before the end: the body will not be whole.
    const onAbort = () => settle({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}
