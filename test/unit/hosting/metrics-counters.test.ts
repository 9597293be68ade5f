import { describe, expect, it } from 'vitest';

import { BridgeMetrics } from '../../../src/base/metrics.js';
import type { ShardState } from '../../../src/discord/discord-health.js';
import type { Poster } from '../../../src/discord/posting/poster.js';
import { SendError, type SendFailure } from '../../../src/discord/posting/send-failure.js';
import { countSends, readyByShard } from '../../../src/serve-metrics.js';
import { PACKAGE_VERSION } from '../../helpers/package-version.js';

async function sends(metrics: BridgeMetrics): Promise<Record<string, number>> {
  const [metric] = await metrics.registry
    .getMetricsAsJSON()
    .then((all) => all.filter((m) => m.name === 'bridge_discord_sends_total'));
  return Object.fromEntries((metric?.values ?? []).map((v) => [String(v.labels.outcome), v.value]));
}

const failing = (failure: SendFailure): Poster => ({
  post: () => Promise.reject(new SendError(failure)),
  edit: () => Promise.reject(new SendError(failure)),
});

describe('the Discord sends counted by the poster', () => {
  it('counts posts, edits and edits of deleted messages, and passes their answers on', async () => {
    const metrics = new BridgeMetrics();
    let edits = 0;
    const poster = countSends(
      { post: () => Promise.resolve('m1'), edit: () => Promise.resolve(edits++ === 0 ? 'edited' : 'gone') },
      metrics,
    );
    expect(await poster.post('c1', { embeds: [] }, 'n1')).toBe('m1');
    expect(await poster.edit('c1', 'm1', { embeds: [] })).toBe('edited');
    expect(await poster.edit('c1', 'm1', { embeds: [] })).toBe('gone');
    expect(await sends(metrics)).toMatchObject({ posted: 1, edited: 1, gone: 1, failed_retryable: 0 });
  });

  it('counts each failure as the feed treats it, and rethrows it unchanged', async () => {
    const metrics = new BridgeMetrics();
    const failures: SendFailure[] = [
      { kind: 'retry', reason: 'Discord 502' },
      { kind: 'wait', retryAfterMs: 1_000, reason: 'rate limited' },
      { kind: 'broken', status: 403, code: 50013, reason: 'Discord 403: Missing Permissions' },
      { kind: 'rejected', status: 400, reason: 'Discord 400: Invalid Form Body' },
      { kind: 'unauthorized', reason: 'Discord 401: Unauthorized' },
    ];
    for (const failure of failures) {
      await expect(countSends(failing(failure), metrics).post('c1', { embeds: [] }, 'n')).rejects.toMatchObject({
        failure,
      });
    }
    await expect(
      countSends(failing(failures[0] as SendFailure), metrics).edit('c1', 'm1', { embeds: [] }),
    ).rejects.toThrow(SendError);
    // Anything else a send throws (a network error discord.js did not wrap) is a failure worth a retry.
    const broken: Poster = {
      post: () => Promise.reject(new Error('socket hang up')),
      edit: () => Promise.resolve('edited'),
    };
    await expect(countSends(broken, metrics).post('c1', { embeds: [] }, 'n')).rejects.toThrow('socket hang up');
    expect(await sends(metrics)).toEqual({
      posted: 0,
      edited: 0,
      gone: 0,
      failed_retryable: 3,
      failed_rate_limited: 1,
      failed_channel_held: 1,
      failed_entry_held: 1,
      failed_unauthorized: 1,
    });
  });
});

describe('BridgeMetrics', () => {
  it('shows each gateway shard ready (1) or not (0), and no shard where this process does not hold the gateway', async () => {
    const metrics = new BridgeMetrics();
    let shards: Record<string, ShardState> | undefined = { '0': 'ready', '1': 'resuming', '2': 'disconnected' };
    metrics.watchGatewayShards(() => readyByShard(shards));
    const text = await metrics.registry.metrics();
    expect(text).toContain('bridge_gateway_shard_ready{shard="0"} 1\n');
    expect(text).toContain('bridge_gateway_shard_ready{shard="1"} 0\n');
    expect(text).toContain('bridge_gateway_shard_ready{shard="2"} 0\n');
    shards = undefined;
    expect(await metrics.registry.metrics()).not.toContain('bridge_gateway_shard_ready{');
  });

  it("names the bot's version and its Node in bridge_build_info, always 1", async () => {
    const text = await new BridgeMetrics().registry.metrics();
    expect(text).toContain(`bridge_build_info{version="${PACKAGE_VERSION}",node="${process.version}"} 1\n`);
  });

  it('times acks in seconds and counts every delivery outcome from 0', async () => {
    const metrics = new BridgeMetrics();
    metrics.knowDeliveryOutcomes(['accepted', 'signature_mismatch']);
    metrics.delivery('accepted', 0.004);
    const text = await metrics.registry.metrics();
    expect(text).toContain('bridge_deliveries_total{outcome="accepted"} 1\n');
    expect(text).toContain('bridge_deliveries_total{outcome="signature_mismatch"} 0\n');
    expect(text).toContain('bridge_ack_seconds_bucket{le="0.0025"} 0\n');
    expect(text).toContain('bridge_ack_seconds_bucket{le="0.005"} 1\n');
    expect(text).toContain('bridge_ack_seconds_count 1\n');
    expect(metrics.registry.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('leaves the entries out of a scrape whose read of the store failed, and shows them again after', async () => {
    const metrics = new BridgeMetrics();
    let fails = true;
    metrics.watchEntries(() =>
      fails ? Promise.reject(new Error('SQLITE_BUSY')) : Promise.resolve({ waiting: 3, held: 1, muted: 0 }),
    );
    expect(await metrics.registry.metrics()).not.toContain('bridge_entries{');
    fails = false;
    const text = await metrics.registry.metrics();
    expect(text).toContain('bridge_entries{state="waiting"} 3\n');
    expect(text).toContain('bridge_entries{state="held"} 1\n');
    expect(text).toContain('bridge_entries{state="muted"} 0\n');
  });
});
