import { register as globalRegistry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';

import { createLogger } from '../../../src/base/logger.js';
import { startBot, type RunningBot } from '../../../src/bot.js';
import { testConfig } from '../../helpers/test-config.js';

/** Listening TCP servers this process has open now. */
async function listeners(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  return process.getActiveResourcesInfo().filter((resource) => resource === 'TCPServerWrap').length;
}

/** The listeners once closed ones are gone: a server's handle is released a moment after close() resolves. */
async function listenersSettledAt(expected: number): Promise<number> {
  const deadline = Date.now() + 2_000;
  let open = await listeners();
  while (open !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    open = await listeners();
  }
  return open;
}

let bot: RunningBot | undefined;
afterEach(async () => {
  await bot?.stop();
  bot = undefined;
});

describe('the metrics listener', () => {
  it('is not opened while METRICS_PORT is unset: the bot listens on PORT alone', async () => {
    const before = await listeners();
    bot = await startBot({ config: testConfig(), logger: createLogger('silent'), host: '127.0.0.1', feed: false });
    expect(bot.metricsHttp).toBeUndefined();
    expect(await listeners()).toBe(before + 1);
    // The counters exist all the same (nothing depends on metrics being on), just not served.
    expect(await bot.metrics.registry.getSingleMetricAsString('bridge_deliveries_total')).toContain(
      'outcome="accepted"',
    );
    await bot.stop();
    bot = undefined;
    expect(await listenersSettledAt(before)).toBe(before);
  });

  it('is opened by METRICS_PORT=0 on a port of its own, and closed when the bot stops', async () => {
    const before = await listeners();
    bot = await startBot({
      config: testConfig({ METRICS_PORT: 0 }),
      logger: createLogger('silent'),
      host: '127.0.0.1',
      feed: false,
    });
    expect(await listeners()).toBe(before + 2);
    expect(bot.metricsHttp?.port).not.toBe(bot.http.port);
    const scraped = await fetch(`${bot.metricsHttp?.url}/metrics`);
    expect(scraped.status).toBe(200);
    // Without a feed this process holds no lease and runs no poller.
    const text = await scraped.text();
    expect(text).toContain('bridge_lease_owned{lease="gateway"} 0\n');
    expect(text).toContain('bridge_lease_owned{lease="feed_partitions"} 0\n');
    expect(text).toContain('bridge_entries{state="waiting"} 0\n');
    expect(text).not.toContain('bridge_poller_budget_remaining');
    // Each bot has a registry of its own: prom-client's global one stays empty.
    expect(await globalRegistry.getMetricsAsJSON()).toEqual([]);
    await bot.stop();
    bot = undefined;
    expect(await listenersSettledAt(before)).toBe(before);
  });
});
