import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { chatInputCommand } from '../../../../fakes/discord/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { postedDeliveryIds, startFeedHarness, type FeedHarness } from '../../../e2e/feed-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';

const run = promisify(execFile);
const SCRIPT = new URL('../../../../scripts/retry-set-aside.ts', import.meta.url).pathname;
const TSX = import.meta.resolve('tsx');

let h: FeedHarness | undefined;
afterEach(async () => {
  if (h) expect(h.discord.violations).toEqual([]);
  await h?.stop();
  h = undefined;
});

/** A case of the sample's player, numbered and with its own reason. */
function kase(id: string, number: number, reason: string) {
  const sample = SAMPLE_DELIVERIES['case.created'];
  return { ...sample, id, data: { case: { ...sample.data.case, number, reason } } };
}

/** The bot's gauge of the items set aside, by job, as a scrape of GET /metrics reads it. */
async function setAsideGauge(harness: FeedHarness): Promise<Record<string, number>> {
  const body = await (await fetch(`${harness.bot.metricsHttp?.url}/metrics`)).text();
  const found: Record<string, number> = {};
  for (const match of body.matchAll(/^bridge_set_aside_items\{task="([^"]+)"\} (\d+)$/gm)) {
    found[match[1] ?? ''] = Number(match[2]);
  }
  return found;
}

async function status(harness: FeedHarness): Promise<string> {
  const draft = chatInputCommand({ name: 'status', as: 'admin', guildId: harness.guild.id });
  return (await harness.discord.dispatchInteraction(draft)).reply?.content ?? '';
}

describe('a delivery the community record cannot merge', () => {
  it('is set aside while the rest is recorded, shown in /status and /metrics, and recorded once retried', async () => {
    h = await startFeedHarness({ config: { METRICS_PORT: 0 } });
    const harness = h;
    // The database refuses this one case's row, as it would a row it cannot take.
    const file = new Database(harness.storeFile);
    file.exec(`CREATE TRIGGER refuse BEFORE INSERT ON record_case WHEN NEW.reason = 'refused reason'
               BEGIN SELECT RAISE(ABORT, 'the test refuses this case'); END`);
    file.close();
    expect(await harness.deliver(kase('refused-1', 1, 'refused reason'))).toBe(204);
    expect(await harness.deliver(kase('fine-2', 2, 'a reason the record takes'))).toBe(204);

    const guildId = harness.guild.id;
    const playerId = SAMPLE_DELIVERIES['case.created'].data.case.target.robloxId;
    const recorded = async () =>
      (await harness.bot.store.of(recordModule).casesOf(guildId, playerId, { limit: 10, offset: 0 })).map(
        (c) => c.number,
      );
    await harness.discord.waitFor(
      async () => (await harness.bot.store.setAside.listForGuild(guildId, 10)).length === 1,
      10_000,
      'the refused case set aside',
    );
    // The rest goes on: the other case is recorded, and the feed posted both.
    await harness.discord.waitFor(async () => (await recorded()).length === 1, 10_000, 'the other case recorded');
    expect(await recorded()).toEqual([2]);
    await harness.discord.waitFor(
      () => postedDeliveryIds(harness.discord, harness.channel('cases')).length === 2,
      10_000,
      'both cases posted',
    );

    expect(await setAsideGauge(harness)).toEqual({ 'record-writer': 1, 'record-sweep': 0 });
    const shown = await status(harness);
    expect(shown).toContain(
      'Set aside (the bot could not do these on their own; each is tried again, later each time):',
    );
    expect(shown).toMatch(
      /• case\.created refused-1, not in the community record yet: .*the test refuses this case \(1 failed try since <t:\d+:R>, next try <t:\d+:R>\)/,
    );
    expect(harness.logs.text()).toContain('deliveries set aside');

    // The host fixes the cause and retries at once (on SQLite the script runs while the bot is stopped).
    let output = '';
    await harness.restart(async () => {
      const fixed = new Database(harness.storeFile);
      fixed.exec('DROP TRIGGER refuse');
      fixed.close();
      const script = await run(process.execPath, ['--import', TSX, SCRIPT], {
        env: { PATH: process.env.PATH ?? '', STORE_URL: `sqlite://${harness.storeFile}` },
      });
      output = script.stdout;
    });
    expect(output).toContain('retry-set-aside: set aside: record-writer 1, record-sweep 0');
    expect(output).toMatch(/retry-set-aside: {3}record-writer server \d+: case\.created refused-1: .*the test refuses/);
    expect(output).toContain('retry-set-aside: 1 item(s) made due now');
    // Recorded (its merge commits first), then no longer set aside (with its mark, just after).
    await harness.discord.waitFor(
      async () => (await harness.bot.store.setAside.listForGuild(guildId, 10)).length === 0,
      10_000,
      'the case no longer set aside',
    );
    expect(await recorded()).toEqual([2, 1]);
    expect(await setAsideGauge(harness)).toEqual({ 'record-writer': 0, 'record-sweep': 0 });
    expect(await status(harness)).not.toContain('Set aside');
  });
});
