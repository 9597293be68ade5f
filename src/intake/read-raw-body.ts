import type { IncomingMessage } from 'node:http';

/** Why a body could not be read. */
export type BodyReadFailure = 'too_large' | 'aborted' | 'encoded';

/** The body, or why there is none to verify. */
export type BodyReadResult = { ok: true; body: Buffer } | { ok: false; reason: BodyReadFailure };

/**
 * The request body exactly as received, whatever the Content-Type (the signature covers the bytes), refused
 * as soon as it passes `limit` bytes: by its Content-Length before reading, or while reading. Bodies with a
 * Content-Encoding are refused: the service signs the bytes it sends, not a decompressed form of them.
 * Never rejects: a client that goes away mid-body is `aborted`.
 */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<BodyReadResult> {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') return { ok: false, reason: 'encoded' };
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) return { ok: false, reason: 'too_large' };

  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > limit) return { ok: false, reason: 'too_large' };
      chunks.push(chunk);
    }
  } catch {
    return { ok: false, reason: 'aborted' };
  }
  return { ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length) };
}
