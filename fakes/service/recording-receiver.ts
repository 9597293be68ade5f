import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got, with the body exactly as it came (signatures are over these bytes). */
export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

/** How the receiver answers: a status, or never (to make the sender's deadline run out). */
export type ReceiverAnswer = { status: number } | 'hang';

/** A tiny HTTP endpoint standing in for a webhook receiver (or a service that hangs) in tests. */
export interface RecordingReceiver {
  /** Where to point a webhook: `http://127.0.0.1:<port>/hook`. */
  readonly url: string;
  /** Every request so far, oldest first. */
  readonly received: readonly ReceivedRequest[];
  /** Changes the answer for the requests that follow; the default is 200. */
  answerWith(answer: ReceiverAnswer): void;
  /** Resolves once `count` requests have arrived in all; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<readonly ReceivedRequest[]>;
  /** Stops listening and cuts hanging requests. */
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 with a free port. */
export async function startRecordingReceiver(): Promise<RecordingReceiver> {
  const received: ReceivedRequest[] = [];
  let answer: ReceiverAnswer = { status: 200 };
  const waiters = new Set<() => void>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, rawBody: Buffer.concat(chunks) });
      for (const wake of waiters) wake();
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end('received');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answerWith(next) {
      answer = next;
    },
    waitFor(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          cleanUp();
          resolve(received);
        };
        const timer = setTimeout(() => {
          cleanUp();
          reject(new Error(`expected ${count} requests, got ${received.length}`));
        }, timeoutMs);
        const cleanUp = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A header as one string (`undefined` when absent), for handing to `verifyDelivery`. */
export function readHeader(request: ReceivedRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}
