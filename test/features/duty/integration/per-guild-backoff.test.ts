import { Client } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeDiscord, type FakeDiscord } from '../../../../fakes/discord/index.js';
import { RUNTIME_TIMERS } from '../../../../src/base/timers.js';
import { createPoster } from '../../../../src/discord/posting/poster.js';
import { BoardUpdater } from '../../../../src/features/duty/board-updater.js';
import { CoverageGuard, type CoverageShortfall } from '../../../../src/features/duty/coverage-guard.js';
import { dutyModule } from '../../../../src/features/duty/store/duty-module.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import type { RecordQueries } from '../../../../src/features/record/store/record-queries.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function storeAndDiscord(): Promise<{ store: Store; discord: FakeDiscord; client: Client }> {
  const dir = makeTempDir();
  cleanups.push(() => dir.remove());
  const store = await openStore(`sqlite://${dir.path}/bot.sqlite`, STORE_MODULES, Date.now);
  cleanups.push(() => store.close());
  const discord = await startFakeDiscord();
  cleanups.push(() => discord.close());
  const client = new Client({ intents: [], rest: { api: discord.apiUrl, retries: 0 } });
  client.rest.setToken(discord.botToken);
  cleanups.push(() => client.destroy());
  return { store, discord, client };
}

/** The gaps between the times, in order. */
const gapsOf = (times: readonly number[]) => times.slice(1).map((time, i) => time - (times[i] ?? 0));

describe('the duty jobs, guild by guild', () => {
  it("keeps a guild's board while another guild's board channel refuses the bot: that one backs off, longer each time", async () => {
    const { store, discord, client } = await storeAndDiscord();
    const refused = discord.addGuild({ channels: [{ name: 'duty' }] });
    const served = discord.addGuild({ channels: [{ name: 'duty' }] });
    const channelOf = (guild: typeof refused) => guild.channels['duty'] ?? '';
    for (const guild of [refused, served]) await store.of(dutyModule).setBoardChannel(guild.id, channelOf(guild));
    discord.failChannel(channelOf(refused));
    let backoffs = 0;
    const board = new BoardUpdater({
      duty: store.of(dutyModule),
      record: store.of(recordModule),
      poster: createPoster(client, { token: discord.botToken }),
      timers: RUNTIME_TIMERS,
      clock: Date.now,
      logger: captureLogs().logger,
      minEditGapMs: 50,
      retryAfterMs: 200,
      onBackoff: () => (backoffs += 1),
    });
    cleanups.push(() => board.stop());
    await board.start();

    const [posted] = await discord.waitForMessages(channelOf(served), 1, 10_000);
    expect(posted?.embeds[0]?.title).toBe('On duty now: 0');
    // The refused guild's board is tried again after about 200 ms, 400 ms, 800 ms…: not every 200 ms for ever.
    const tries = () =>
      discord.requests
        .filter((request) => request.path === `/channels/${channelOf(refused)}/messages` && request.status === 403)
        .map((request) => request.time);
    await discord.waitFor(() => tries().length >= 4, 10_000, 'four tries of the refused board');
    const gaps = gapsOf(tries());
    expect(gaps[2]).toBeGreaterThanOrEqual(400);
    expect(backoffs).toBeGreaterThanOrEqual(3);
    // Meanwhile the served guild's board follows its changes: a shift starts there.
    await store.deliveries.accept({
      hookId: 'hook-duty',
      guildId: served.id,
      deliveryId: 'shift-1',
      event: 'shift.started',
      server: '4821337',
      rawBody: JSON.stringify({
        id: 'shift-1',
        event: 'shift.started',
        server: '4821337',
        at: Date.now(),
        data: {
          shift: {
            id: 1,
            discordId: '500000000000000001',
            name: 'Staff Sam',
            robloxId: '77',
            startedAt: Date.now(),
            endedAt: null,
            seconds: null,
          },
        },
      }),
      receivedAt: Date.now(),
    });
    expect((await store.of(recordModule).recordPending(10)).recorded).toBe(1);
    board.changed(served.id);
    await discord.waitFor(
      () => discord.messages(channelOf(served))[0]?.embeds[0]?.title === 'On duty now: 1',
      10_000,
      'the served board edited',
    );
    expect(discord.messages(channelOf(refused))).toHaveLength(0);
  });

  it("alerts a short guild while another guild's record cannot be read: that one backs off, longer each time", async () => {
    const { store } = await storeAndDiscord();
    const [short, unreadable] = ['100000000000000001', '100000000000000002'];
    for (const guildId of [short, unreadable])
      await store.of(dutyModule).setMinimum(guildId, { staff: 1, afterMinutes: 0 });
    await store.deliveries.accept({
      hookId: 'hook-coverage',
      guildId: short,
      deliveryId: 'session-1',
      event: 'session.started',
      server: '4821337',
      rawBody: JSON.stringify({
        id: 'session-1',
        event: 'session.started',
        server: '4821337',
        at: Date.now(),
        data: { session: { id: 7, name: 'Evening patrol', startedAt: Date.now() - 60_000, endedAt: null } },
      }),
      receivedAt: Date.now(),
    });
    expect((await store.of(recordModule).recordPending(10)).recorded).toBe(1);
    // The unreadable guild's running sessions fail to read, as a store does for one guild's damaged rows.
    const reads: number[] = [];
    const record: Pick<RecordQueries, 'openShifts' | 'runningSessions'> = {
      openShifts: (guildId) => store.of(recordModule).openShifts(guildId),
      runningSessions: (guildId) => {
        if (guildId !== unreadable) return store.of(recordModule).runningSessions(guildId);
        reads.push(Date.now());
        return Promise.reject(new Error('SQLITE_CORRUPT: database disk image is malformed'));
      },
    };
    const reports: Array<{ guildId: string; shortfall: CoverageShortfall | null }> = [];
    let backoffs = 0;
    const guard = new CoverageGuard({
      duty: store.of(dutyModule),
      record,
      report: (guildId, shortfall) => {
        reports.push({ guildId, shortfall });
        return Promise.resolve();
      },
      timers: RUNTIME_TIMERS,
      clock: Date.now,
      logger: captureLogs().logger,
      backoff: { baseMs: 200, capMs: 10_000 },
      onBackoff: () => (backoffs += 1),
    });
    cleanups.push(() => guard.stop());
    await guard.start();
    const waitFor = async (done: () => boolean, what: string) => {
      for (const until = Date.now() + 10_000; !done(); await new Promise((resolve) => setTimeout(resolve, 20))) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      }
    };
    await waitFor(() => reports.some((report) => report.guildId === short && report.shortfall !== null), 'the alert');
    expect(reports.find((report) => report.shortfall !== null)?.shortfall).toMatchObject({ onShift: 0 });
    // A change of the unreadable guild while it backs off waits for its retry; its retries come later each time.
    for (let i = 0; i < 5; i += 1) guard.changed(unreadable);
    await waitFor(() => reads.length >= 4, 'four looks at the unreadable guild');
    const gaps = gapsOf(reads);
    expect(gaps[0]).toBeGreaterThanOrEqual(100);
    expect(gaps[2]).toBeGreaterThanOrEqual(400);
    expect(backoffs).toBeGreaterThanOrEqual(4);
    expect(reports.filter((report) => report.guildId === unreadable)).toEqual([]);
  });
});
