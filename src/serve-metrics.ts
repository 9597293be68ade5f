import { RESTEvents, type Client } from 'discord.js';

import type { Config } from './base/config.js';
import type { Logger } from './base/logger.js';
import type { BridgeMetrics, DiscordSendOutcome, PostedDelivery } from './base/metrics.js';
import type { ShardState } from './discord/discord-health.js';
import type { Poster } from './discord/posting/poster.js';
import { SendError, type SendFailure } from './discord/posting/send-failure.js';
import { listen, type RunningServer } from './http-server.js';
import type { QueuedEntry } from './store/deliveries.js';
import { EVENT_NAMES, isEventName } from './upstream/schemas.js';

/**
 * The `event` label of posted deliveries: the seven documented events, and `unknown` for any event the service may
 * add (kept and posted as it is): a fixed set whatever a delivery says.
 */
export const POSTED_EVENT_LABELS: readonly string[] = [...EVENT_NAMES, 'unknown'];

/** A message's entries, recorded posted at `postedAt`, as the metrics count them. */
export function postedDeliveriesOf(entries: readonly QueuedEntry[], postedAt: number): PostedDelivery[] {
  return entries.map((entry) => ({
    event: isEventName(entry.event) ? entry.event : 'unknown',
    seconds: (postedAt - entry.receivedAt) / 1000,
  }));
}

/** /healthz's shard states as the metrics' gauge reads them: ready or not, by shard id. */
export function readyByShard(shards: Record<string, ShardState> | undefined): Record<string, boolean> | undefined {
  if (shards === undefined) return undefined;
  return Object.fromEntries(Object.entries(shards).map(([shard, state]) => [shard, state === 'ready']));
}

/**
 * GET /metrics on METRICS_HOST:METRICS_PORT, a listener of its own (never the intake's port, which faces the
 * internet), or nothing when METRICS_PORT is unset. Only a serving process pays for process metrics and for
 * hearing every Discord answer (to count the 429s discord.js waits out): see {@link BridgeMetrics}.
 */
export async function serveMetrics(
  metrics: BridgeMetrics,
  config: Pick<Config, 'METRICS_PORT' | 'METRICS_HOST'>,
  parts: { discord: Client | undefined; logger: Logger },
): Promise<RunningServer | undefined> {
  if (config.METRICS_PORT === undefined) return undefined;
  metrics.collectProcessMetrics();
  parts.discord?.rest.on(RESTEvents.Response, (_request, response) => {
    if (response.status === 429) metrics.rateLimited();
  });
  return listen(metricsHandler(metrics, parts.logger), config.METRICS_PORT, config.METRICS_HOST);
}

/** Answers GET (and HEAD) /metrics with the registry's text; anything else 404 or 405. */
export function metricsHandler(metrics: BridgeMetrics, logger: Logger): Parameters<typeof listen>[0] {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('not found: the metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('use GET\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'collecting the metrics failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('the metrics could not be collected\n');
      },
    );
  };
}

/** The poster, counting each post and edit in `bridge_discord_sends_total{outcome}`. */
export function countSends(poster: Poster, metrics: BridgeMetrics): Poster {
  const counted = async <T>(run: () => Promise<T>, outcome: (result: T) => DiscordSendOutcome): Promise<T> => {
    try {
      const result = await run();
      metrics.discordSend(outcome(result));
      return result;
    } catch (error) {
      if (error instanceof SendError) metrics.discordSend(failedOutcomeOf(error.failure));
      else metrics.discordSend('failed_retryable');
      throw error;
    }
  };
  return {
    post: (channelId, body, nonce) =>
      counted(
        () => poster.post(channelId, body, nonce),
        () => 'posted',
      ),
    edit: (channelId, messageId, body) =>
      counted(
        () => poster.edit(channelId, messageId, body),
        (result) => (result === 'edited' ? 'edited' : 'gone'),
      ),
  };
}

/** A failed send in the words of the metrics: what the feed does with it (lane-failures.ts). */
export function failedOutcomeOf(failure: SendFailure): DiscordSendOutcome {
  switch (failure.kind) {
    case 'retry':
      return 'failed_retryable';
    case 'wait':
      return 'failed_rate_limited';
    case 'broken':
      return 'failed_channel_held';
    case 'rejected':
      return 'failed_entry_held';
    case 'unauthorized':
      return 'failed_unauthorized';
  }
}
