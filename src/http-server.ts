import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A certificate chain and its private key (PEM), to serve HTTPS directly instead of behind a proxy. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** Reads TLS_CERT and TLS_KEY; undefined (plain HTTP) when they are not set. */
export function readTlsFiles(certPath: string | undefined, keyPath: string | undefined): TlsFiles | undefined {
  if (certPath === undefined || keyPath === undefined) return undefined;
  return { cert: readFileSync(certPath), key: readFileSync(keyPath) };
}

/** A listening HTTP server and the way to stop it gracefully. */
export interface RunningServer {
  server: Server;
  /** The base URL it listens on, e.g. http://127.0.0.1:41234 (https:// with TLS). */
  url: string;
  port: number;
  /** Stops accepting, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
}

/** Serves `handler` on `port` (0: any free port) and `host`, over HTTPS when `tls` is given. */
export async function listen(
  handler: RequestListener,
  port: number,
  host = '0.0.0.0',
  tls?: TlsFiles,
): Promise<RunningServer> {
  const server: Server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, handler) : createServer(handler);
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
    url: `${tls ? 'https' : 'http'}://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets with no request in flight would hold close() open; in-flight ones finish first.
        server.closeIdleConnections();
      }),
  };
}
