import type { Config } from './config.js';
import { listen, type RunningServer } from './http-server.js';
import { DeliveryAcceptor } from './intake/accept-delivery.js';
import { createApp } from './intake/create-app.js';
import type { DeliveryObserver } from './intake/webhook-route.js';
import type { Logger } from './logger.js';
import { openStore, type Store } from './store/open-store.js';
import { createSecretBox } from './store/secret-box.js';

/** A running bot: what tests and main.ts hold on to. */
export interface RunningBot {
  store: Store;
  http: RunningServer;
  stop(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** Milliseconds since the Unix epoch. */
  clock?: () => number;
  /** Host to bind; tests use 127.0.0.1. */
  host?: string;
  observeDelivery?: DeliveryObserver;
}

/** How often expired seen ids are swept out of stores without a TTL of their own (SQLite). */
const SEEN_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The composition root shared by main.ts, the tests and the demo: store -> intake -> HTTP.
 * Stopping reverses it: stop accepting, finish requests in flight, close the store.
 */
export async function startBot(options: StartOptions): Promise<RunningBot> {
  const { config, logger } = options;
  const clock = options.clock ?? Date.now;
  const store = await openStore(config.STORE_URL, clock);
  const secrets = createSecretBox(config.SECRET_KEY);
  const acceptor = new DeliveryAcceptor(store.outbox, store.seen);

  const app = createApp({
    hooks: store.hooks,
    acceptor,
    secrets,
    clock,
    logger,
    ...(options.observeDelivery ? { observeDelivery: options.observeDelivery } : {}),
    health: () => ({ store: store.kind, outbox: store.outbox.size }),
  });
  let http: RunningServer;
  try {
    http = await listen(app, config.PORT, options.host);
  } catch (error) {
    await store.close();
    throw error;
  }
  logger.info({ port: http.port, store: store.kind, pending: store.outbox.size }, 'intake listening');

  const sweep = setInterval(() => {
    store.seen.sweepExpired().catch((error: unknown) => logger.warn({ err: error }, 'sweeping seen ids failed'));
  }, SEEN_SWEEP_INTERVAL_MS);
  sweep.unref();

  return {
    store,
    http,
    async stop() {
      clearInterval(sweep);
      await http.close();
      await store.close();
      logger.info('stopped');
    },
  };
}
