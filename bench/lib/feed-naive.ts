import { REST, Routes } from 'discord.js';

import { renderDelivery } from '../../src/embeds/render-delivery.js';
import { classifyDelivery, EnvelopeSchema } from '../../src/upstream/schemas.js';
import type { FeedDelivery } from './feed-deliveries.js';

/**
 * The peer of feed.vs_naive: the bridge anyone writes first. One message per event, through discord.js's own
 * REST client (which queues per route and waits out the rate limit, like the bot's), each send awaited in
 * order. It gets the burst already in memory: no intake, no store, no signature check, so everything it
 * spends is sending; that favours it, if anything.
 */
export interface NaiveBridge {
  /** Renders and posts each delivery as a message of its own, in order, each awaited. */
  post(channelId: string, deliveries: readonly FeedDelivery[]): Promise<void>;
  close(): void;
}

export function createNaiveBridge(options: { apiUrl: string; token: string }): NaiveBridge {
  // The REST options the bot's Client gets (discord.js defaults, offset 50 ms) apart from the base URL.
  const rest = new REST({ api: options.apiUrl }).setToken(options.token);
  return {
    async post(channelId, deliveries) {
      for (const delivery of deliveries) {
        const body = renderDelivery(classifyDelivery(EnvelopeSchema.parse(JSON.parse(delivery.body))), {});
        await rest.post(Routes.channelMessages(channelId), { body });
      }
    },
    close() {
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
    },
  };
}
