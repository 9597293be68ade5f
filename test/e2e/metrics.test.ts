import { afterEach, describe, expect, it } from 'vitest';

import { BridgeMetrics } from '../../src/base/metrics.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { FEED_CHANNELS, FEED_SECRET, startFeedHarness, type FeedHarness } from './feed-harness.js';

const SECRET_KEY = 'metrics-e2e-secret-key-0123456789';

let h: FeedHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** One scrape of GET /metrics: its status, Content-Type, body, and each sample by its name and labels. */
async function scrape(url: string) {
  const response = await fetch(`${url}/metrics`);
  const body = await response.text();
  const samples = new Map<string, number>();
  for (const line of body.split('\n')) {
    const match = /^([a-z_:][a-z0-9_:]*(?:\{[^}]*\})?) (\S+)$/i.exec(line);
    if (match?.[1] && match[2]) samples.set(match[1], Number(match[2]));
  }
  const value = (sample: string) => samples.get(sample) ?? 0;
  return { status: response.status, contentType: response.headers.get('content-type'), body, samples, value };
}

describe('GET /metrics', () => {
  it('counts a delivery stored and posted, a forged one refused, and shows no secret or name', async () => {
    h = await startFeedHarness({ config: { METRICS_PORT: 0, SECRET_KEY } });
    const metricsHttp = h.bot.metricsHttp;
    if (!metricsHttp) throw new Error('METRICS_PORT=0 started no metrics listener');
    // METRICS_HOST's default: the loopback interface only, on a port of its own.
    expect(metricsHttp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(metricsHttp.port).not.toBe(h.bot.http.port);
    expect((await fetch(`${h.bot.http.url}/metrics`)).status).toBe(404);

    const before = await scrape(metricsHttp.url);
    expect(before.status).toBe(200);
    expect(before.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');

    expect(await h.deliver(SAMPLE_DELIVERIES.modcall)).toBe(204);
    const body = JSON.stringify({ ...SAMPLE_DELIVERIES['case.created'], id: 'forged-1' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const forged = await fetch(`${h.bot.http.url}/webhooks/${h.hookId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-timestamp': timestamp,
        'x-service-signature': signDelivery('not-the-secret', timestamp, body),
      },
      body,
    });
    expect(forged.status).toBe(401);
    await h.discord.waitForMessages(h.channel('modcalls'), 1);

    // The ack is counted when the answer is handed over; the send once Discord answered it, the entry once acked.
    let after = await scrape(metricsHttp.url);
    const settled = () =>
      after.value('bridge_discord_sends_total{outcome="posted"}') >= 1 &&
      after.value('bridge_entries{state="waiting"}') === 0;
    for (let tries = 0; !settled() && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await scrape(metricsHttp.url);
    }
    const moved = (sample: string) => after.value(sample) - before.value(sample);
    expect(moved('bridge_deliveries_total{outcome="accepted"}')).toBe(1);
    expect(moved('bridge_deliveries_total{outcome="signature_mismatch"}')).toBe(1);
    expect(moved('bridge_deliveries_total{outcome="duplicate"}')).toBe(0);
    expect(moved('bridge_discord_sends_total{outcome="posted"}')).toBeGreaterThanOrEqual(1);
    expect(after.value('bridge_discord_sends_total{outcome="failed_retryable"}')).toBe(0);
    expect(after.value('bridge_ack_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(after.value('bridge_ack_seconds_bucket{le="+Inf"}')).toBe(after.value('bridge_ack_seconds_count'));
    expect(after.value('bridge_discord_rate_limited_total')).toBe(0);
    expect(after.samples.has('bridge_lane_backoffs_total')).toBe(true);

    // The queue, the leases and the poller's budget, read at the scrape; one process (SQLite) owns everything.
    expect(after.samples.get('bridge_entries{state="waiting"}')).toBe(0);
    expect(after.samples.get('bridge_entries{state="held"}')).toBe(0);
    expect(after.samples.get('bridge_entries{state="muted"}')).toBe(0);
    expect(after.samples.get('bridge_lease_owned{lease="gateway"}')).toBe(1);
    expect(after.samples.get('bridge_lease_owned{lease="feed_partitions"}')).toBe(64);
    expect(after.samples.get('bridge_poller_budget_remaining')).toBe(30);
    // prom-client's process metrics, in this bot's registry.
    expect(after.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(after.samples.has('nodejs_eventloop_lag_seconds')).toBe(true);

    for (const secret of [FEED_SECRET, h.discord.botToken, SECRET_KEY, h.hookId, 'not-the-secret']) {
      expect(after.body).not.toContain(secret);
    }
    for (const name of ['Feed Guild', ...FEED_CHANNELS.map((channel) => `"${channel}"`)]) {
      expect(after.body).not.toContain(name);
    }
  });

  it('counts a held entry and a lane that backed off, and answers only GET /metrics', async () => {
    h = await startFeedHarness({ config: { METRICS_PORT: 0 } });
    const url = h.bot.metricsHttp?.url ?? '';
    // Discord refuses this message (400): its entry is held until an admin acts.
    h.discord.failRequests({
      status: 400,
      count: 1,
      match: new RegExp(`/channels/${h.channel('modcalls')}/messages$`),
    });
    expect(await h.deliver(SAMPLE_DELIVERIES.modcall)).toBe(204);
    let scraped = await scrape(url);
    for (let tries = 0; scraped.value('bridge_entries{state="held"}') < 1 && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      scraped = await scrape(url);
    }
    expect(scraped.samples.get('bridge_entries{state="held"}')).toBe(1);
    expect(scraped.value('bridge_discord_sends_total{outcome="failed_entry_held"}')).toBe(1);
    expect(scraped.value('bridge_lane_backoffs_total')).toBe(0);

    // Discord answers 500 to the send and to discord.js's own 3 retries of it: the lane backs off, then posts.
    h.discord.failRequests({ status: 500, count: 4, match: new RegExp(`/channels/${h.channel('cases')}/messages$`) });
    expect(await h.deliver(SAMPLE_DELIVERIES['case.created'])).toBe(204);
    await h.discord.waitForMessages(h.channel('cases'), 1);
    scraped = await scrape(url);
    expect(scraped.value('bridge_discord_sends_total{outcome="failed_retryable"}')).toBe(1);
    expect(scraped.value('bridge_lane_backoffs_total')).toBe(1);

    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('counts posted deliveries one by one, by event, with their time from accept to post, and the oldest waiting', async () => {
    // A quiet time of 300 ms: deliveries sent together go out as one message.
    h = await startFeedHarness({ config: { METRICS_PORT: 0 }, batchWindow: { quietMs: 300, maxMs: 2_000 } });
    const url = h.bot.metricsHttp?.url ?? '';
    const cases = new RegExp(`/channels/${h.channel('cases')}/messages$`);
    const before = await scrape(url);
    expect(before.samples.get('bridge_oldest_waiting_seconds')).toBe(0);
    // Every event's label from 0, and the one shard of this bot's gateway, ready.
    for (const event of ['case.created', 'modcall', 'shift.ended', 'unknown']) {
      expect(before.samples.get(`bridge_delivery_post_seconds_count{event="${event}"}`), event).toBe(0);
    }
    expect(before.samples.get('bridge_gateway_shard_ready{shard="0"}')).toBe(1);
    expect(before.samples.get('bridge_record_lag_seconds')).toBe(0);

    // Discord holds the case's send: the delivery waits, and the gauge says for how long.
    h.discord.hangRequests({ forMs: 1_500, match: cases });
    const acceptedAt = Date.now();
    expect(await h.deliver(SAMPLE_DELIVERIES['case.created'])).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 800));
    const waiting = await scrape(url);
    expect(waiting.value('bridge_oldest_waiting_seconds')).toBeGreaterThanOrEqual(0.7);
    expect(waiting.value('bridge_oldest_waiting_seconds')).toBeLessThanOrEqual((Date.now() - acceptedAt) / 1000);
    await h.discord.waitForMessages(h.channel('cases'), 1);

    // Three modcalls and an event the bot does not know, sent together: two messages, four deliveries.
    for (const id of ['dlv_mc_1', 'dlv_mc_2', 'dlv_mc_3']) {
      expect(await h.deliver({ ...SAMPLE_DELIVERIES.modcall, id })).toBe(204);
    }
    expect(await h.deliver({ ...SAMPLE_DELIVERIES.modcall, id: 'dlv_new_1', event: 'vehicle.spawned' })).toBe(204);
    await h.discord.waitForMessages(h.channel('modcalls'), 1);
    let after = await scrape(url);
    for (
      let tries = 0;
      after.value('bridge_delivery_post_seconds_count{event="unknown"}') < 1 && tries < 200;
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await scrape(url);
    }
    const moved = (sample: string) => after.value(sample) - before.value(sample);
    expect(h.discord.messages(h.channel('modcalls'))).toHaveLength(1);
    expect(after.value('bridge_delivery_post_seconds_count{event="modcall"}')).toBe(3);
    expect(after.value('bridge_delivery_post_seconds_count{event="unknown"}')).toBe(1);
    expect(after.value('bridge_delivery_post_seconds_count{event="case.created"}')).toBe(1);
    expect(moved('bridge_discord_sends_total{outcome="posted"}')).toBe(3);
    // The case waited out Discord's hold (over a second); each modcall was posted within the batch's wait.
    expect(after.samples.get('bridge_delivery_post_seconds_bucket{le="1",event="case.created"}')).toBe(0);
    expect(after.samples.get('bridge_delivery_post_seconds_bucket{le="+Inf",event="case.created"}')).toBe(1);
    expect(after.samples.get('bridge_delivery_post_seconds_bucket{le="10",event="modcall"}')).toBe(3);
    expect(after.samples.get('bridge_oldest_waiting_seconds')).toBe(0);
    // Only fixed words in the labels: the unknown event is `unknown`, never its name.
    expect(after.body).not.toContain('vehicle.spawned');
  });

  it('leaves the ages out of a scrape whose read of the store failed, and shows them again after', async () => {
    const metrics = new BridgeMetrics();
    let fails = true;
    const now = 1_000_000;
    const fromStore = (at: number) => () => (fails ? Promise.reject(new Error('SQLITE_BUSY')) : Promise.resolve(at));
    metrics.watchOldestWaiting(fromStore(now - 90_000), () => now);
    metrics.watchRecordLag(fromStore(now - 2_500), () => now);
    const failed = await metrics.registry.metrics();
    expect(failed).not.toMatch(/^bridge_oldest_waiting_seconds /m);
    expect(failed).not.toMatch(/^bridge_record_lag_seconds /m);
    fails = false;
    const text = await metrics.registry.metrics();
    expect(text).toContain('bridge_oldest_waiting_seconds 90\n');
    expect(text).toContain('bridge_record_lag_seconds 2.5\n');
  });

  it('counts the 429s Discord answered, which discord.js waited out', async () => {
    // No X-RateLimit headers: discord.js learns the channel's limit (1 message a second) from a 429.
    h = await startFeedHarness({
      config: { METRICS_PORT: 0 },
      discord: { advertiseRateLimits: false, messageRateLimit: { limit: 1, windowMs: 1_000 } },
    });
    const url = h.bot.metricsHttp?.url ?? '';
    const first = SAMPLE_DELIVERIES['case.created'];
    expect(await h.deliver(first)).toBe(204);
    await h.discord.waitForMessages(h.channel('cases'), 1);
    const second = { ...first, id: 'dlv_case_1043', data: { case: { ...first.data.case, number: 1043 } } };
    expect(await h.deliver(second)).toBe(204);
    await h.discord.waitForMessages(h.channel('cases'), 2);

    const scraped = await scrape(url);
    expect(h.discord.rateLimitHits).toBeGreaterThanOrEqual(1);
    expect(scraped.value('bridge_discord_rate_limited_total')).toBe(h.discord.rateLimitHits);
    expect(scraped.value('bridge_discord_sends_total{outcome="posted"}')).toBe(2);
  });
});
