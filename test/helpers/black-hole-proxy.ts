import net from 'node:net';

/**
 * A TCP proxy to `target` that can become a black hole: bytes stop flowing both ways while every connection
 * stays open, as when a network path dies without either end closing its socket. Nothing is refused or reset,
 * so neither end learns of it until its own timeouts.
 */
export interface BlackHoleProxy {
  port: number;
  swallow(): void;
  close(): Promise<void>;
}

export async function startBlackHoleProxy(target: { host: string; port: number }): Promise<BlackHoleProxy> {
  let swallowing = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk) => {
        if (!swallowing) to.write(chunk);
      });
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        if (!swallowing) to.end();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    swallow() {
      swallowing = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
