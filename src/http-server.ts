import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';

/** A listening HTTP server and the way to stop it gracefully. */
export interface RunningServer {
  server: Server;
  /** The base URL it listens on, e.g. http://127.0.0.1:41234. */
  url: string;
  port: number;
  /** Stops accepting, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
}

/** Serves `handler` on `port` (0: any free port) and `host`. */
export async function listen(handler: RequestListener, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = createServer(handler);
  // The service waits at most 5 s for an answer; a slow client must not hold a socket forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    server,
    port: address.port,
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets with no request in flight would hold close() open; in-flight ones finish first.
        server.closeIdleConnections();
      }),
  };
}
