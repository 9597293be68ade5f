import type { IncomingMessage } from 'node:http';

/** Why a body could not be read. */
export class BodyReadError extends Error {
  override readonly name = 'BodyReadError';
  constructor(readonly reason: 'too_large' | 'aborted' | 'encoded') {
    super(reason);
  }
}

/**
 * The request body exactly as received, whatever the Content-Type (the signature covers the bytes), refused
 * as soon as it passes `limit` bytes: by its Content-Length before reading, or while reading. Bodies with a
 * Content-Encoding are refused: the service signs the bytes it sends, not a decompressed form of them.
 */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') throw new BodyReadError('encoded');
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) throw new BodyReadError('too_large');

  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > limit) throw new BodyReadError('too_large');
      chunks.push(chunk);
    }
  } catch (error) {
    throw error instanceof BodyReadError ? error : new BodyReadError('aborted');
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
}
