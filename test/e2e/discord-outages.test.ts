import { afterEach, describe, expect, it } from 'vitest';

import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { postedDeliveryIds, startFeedHarness, type FeedHarness } from './feed-harness.js';

/** A modcall from a caller of its own (one caller's calls within 10 minutes are one card). */
const modcall = (id: string) => ({
  ...SAMPLE_DELIVERIES.modcall,
  id,
  data: { ...SAMPLE_DELIVERIES.modcall.data, caller: { robloxId: `caller-${id}`, name: `caller ${id}` } },
});

async function healthOf(h: FeedHarness): Promise<{ discord: string }> {
  return (await (await fetch(`${h.bot.http.url}/healthz`)).json()) as { discord: string };
}

let h: FeedHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('the intake never depends on Discord', () => {
  it('keeps accepting while Discord answers 503 to everything at start for 20 s, then posts each once', async () => {
    h = await startFeedHarness({
      beforeStart: (discord) => discord.failRequests({ status: 503, forMs: 20_000 }),
      waitForReady: false,
    });
    expect((await healthOf(h)).discord).toBe('connecting');
    const ids = Array.from({ length: 8 }, (_, i) => `during-outage-${i}`);
    for (const id of ids) {
      expect(await h.deliver(modcall(id))).toBe(204);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(h.discord.messages(h.channel('modcalls'))).toHaveLength(0);
    expect(h.logs.lines.some((line) => line.includes('Discord login failed; the intake keeps running'))).toBe(true);

    await h.discord.waitFor(() => h!.bot.discord?.isReady(), 30_000, 'the bot logged in after the outage');
    await h.discord.waitFor(
      () => postedDeliveryIds(h!.discord, h!.channel('modcalls')).length >= ids.length,
      15_000,
      'every delivery posted',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(postedDeliveryIds(h.discord, h.channel('modcalls'))).toEqual(ids);
    expect((await healthOf(h)).discord).toBe('ready');
  }, 60_000);

  it('restores the token after a 401 on a send, says so meanwhile, and posts each once', async () => {
    h = await startFeedHarness();
    h.discord.failRequests({ status: 401, forMs: 1_500, match: /\/messages$/ });
    expect(await h.deliver(modcall('while-refused-1'))).toBe(204);
    await h.discord.waitFor(async () => (await healthOf(h!)).discord === 'token refused', 5_000, 'healthz: refused');
    const status = await h.bot.store.deliveries.statusOf(h.guild.id);
    expect(status.waiting).toBe(1);
    expect(await h.deliver(modcall('while-refused-2'))).toBe(204);

    await h.discord.waitFor(
      () => postedDeliveryIds(h!.discord, h!.channel('modcalls')).length >= 2,
      10_000,
      'posting resumed',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(postedDeliveryIds(h.discord, h.channel('modcalls'))).toEqual(['while-refused-1', 'while-refused-2']);
    expect((await healthOf(h)).discord).toBe('ready');
    expect(JSON.stringify(h.logs.lines)).not.toContain(h.discord.botToken);
  }, 30_000);
});
