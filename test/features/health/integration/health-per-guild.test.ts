import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { OutgoingMessage, Poster } from '../../../../src/discord/posting/poster.js';
import { SendError } from '../../../../src/discord/posting/send-failure.js';
import { AlertDesk } from '../../../../src/features/health/alert-desk.js';
import { alertSettingsOn } from '../../../../src/features/health/alert-settings.js';
import { HealthMonitor } from '../../../../src/features/health/health-monitor.js';
import { incidentsOn } from '../../../../src/features/health/incidents.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { IntakeFailures } from '../../../../src/intake/intake-failures.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { createSecretBox } from '../../../../src/store/secret-box.js';
import { createServiceClient } from '../../../../src/upstream/client.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

const CHECK_EVERY_MS = 30_000;

/** Lets the store's reads and the checks they start run, until `done` or a few hundred turns. */
async function turnsUntil(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 500 && !done(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * A poster that records what it posted, and whose posts in one channel hang (a Discord that does not answer
 * there) until released, then fail as a timed-out request does.
 */
function posterHangingIn(channelId: string) {
  const posts: Array<{ channelId: string; body: OutgoingMessage }> = [];
  const hung: Array<() => void> = [];
  let hanging = true;
  const poster: Poster = {
    post: async (to, body) => {
      if (to === channelId && hanging) {
        await new Promise<void>((resolve) => hung.push(resolve));
        throw new SendError({ kind: 'retry', reason: 'the request timed out' });
      }
      posts.push({ channelId: to, body });
      return `message-${posts.length}`;
    },
    edit: () => Promise.resolve('edited'),
  };
  const release = () => {
    hanging = false;
    for (const resolve of hung.splice(0)) resolve();
  };
  return { poster, posts, release };
}

/** The health monitor over many servers: one server's damaged documents, or slow Discord or service, is its own. */
describe('the health monitor, server by server', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;
  let monitor: HealthMonitor | undefined;
  let time: ManualTime;
  let logs: ReturnType<typeof captureLogs>;
  const cleanups: Array<() => unknown> = [];

  beforeEach(async () => {
    time = new ManualTime();
    logs = captureLogs();
    dir = makeTempDir();
    store = await openStore(`sqlite://${dir.path}/bot.sqlite`, STORE_MODULES, time.now);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await monitor?.stop();
    monitor = undefined;
    await store.close();
    dir.remove();
  });

  /** A server with an alert channel and a feed channel Discord refuses: its check raises an alert. */
  const brokenFeedIn = async (guildId: string) => {
    await alertSettingsOn(store.documents).set({
      guildId,
      channelId: `alerts-${guildId}`,
      roleId: null,
      silenceHours: 1,
    });
    await store.deliveries.holdBrokenChannel({
      channelId: `feed-${guildId}`,
      guildId,
      status: 403,
      reason: 'Missing Access',
      since: time.now(),
    });
  };

  const startMonitor = (poster: Poster, serviceUrl = 'http://127.0.0.1:9') => {
    const settings = alertSettingsOn(store.documents, logs.logger);
    const incidents = incidentsOn(store.documents, logs.logger);
    const desk = new AlertDesk({ incidents, settings, poster, clock: time.now, logger: logs.logger, timers: time });
    monitor = new HealthMonitor({
      hooks: store.hooks,
      activity: store.activity,
      deliveries: store.deliveries,
      signals: store.signals,
      intakeFailures: new IntakeFailures(),
      incidents,
      settings,
      desk,
      documents: store.documents,
      probe: {
        signals: store.signals,
        service: createServiceClient({ serviceUrl, timeoutMs: 60_000 }),
        activity: store.activity,
        guilds: store.guilds,
        secrets: createSecretBox(undefined),
        logger: logs.logger,
        clock: time.now,
        publicUrl: 'https://bot.example.test',
        pingTimeoutMs: 1_000,
      },
      clock: time.now,
      timers: time,
      logger: logs.logger,
      checkEveryMs: CHECK_EVERY_MS,
    });
    return monitor.start();
  };
  it("checks the servers whose settings can be read when one server's settings document is damaged", async () => {
    await brokenFeedIn('g1');
    // Listed first, and not settings (written by hand, or damaged).
    await store.documents.update('alert_settings', 'g0', () => ({ guildId: 'g0', channelId: 42 }));
    const { poster, posts } = posterHangingIn('none');
    await startMonitor(poster);
    await time.advance(0, () => monitor!.settled());
    expect(posts.map((post) => post.channelId)).toEqual(['alerts-g1']);
    expect(logs.text()).toContain("a server's alert settings could not be read; its checks are passed over");
  });

  it("starts, and alerts the other servers, when one server's stored incident is damaged", async () => {
    await brokenFeedIn('g1');
    await store.documents.update('incident', 'g0:held:', () => ({ guildId: 'g0', type: 'no such type' }));
    const { poster, posts } = posterHangingIn('none');
    await startMonitor(poster);
    await time.advance(0, () => monitor!.settled());
    expect(posts.map((post) => post.channelId)).toEqual(['alerts-g1']);
    expect(logs.text()).toContain('a stored health incident could not be read; passed over');
  });

  it("posts a server's alert while Discord does not answer in another server's alert channel, which backs off", async () => {
    await brokenFeedIn('g0');
    await brokenFeedIn('g1');
    const { poster, posts, release } = posterHangingIn('alerts-g0');
    cleanups.push(release);
    await startMonitor(poster);
    // g0 is checked first; its alert's post hangs. g1's alert does not wait for it.
    await time.advance(0, () => turnsUntil(() => posts.length > 0));
    expect(posts.map((post) => post.channelId)).toEqual(['alerts-g1']);

    // Discord answers at last, with a failure: g0's alert backs off, and is posted at its retry (15 to 30 s).
    release();
    await turnsUntil(() => logs.text().includes('alert not updated; tried again later'));
    expect(logs.text()).toContain('alert not updated; tried again later');
    await time.advance(CHECK_EVERY_MS, () => monitor!.settled());
    expect(posts.map((post) => post.channelId)).toEqual(['alerts-g1', 'alerts-g0']);
  });

  it("alerts a server while another server's silent webhook waits for a service that does not answer", async () => {
    // A service that takes connections and never answers.
    const silentService = net.createServer(() => undefined);
    const sockets = new Set<net.Socket>();
    silentService.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silentService.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          silentService.close(resolve);
        }),
    );
    const address = silentService.address() as net.AddressInfo;
    // g0: a webhook silent for 10 hours (its silence time is 1 hour), the server key to ask the service for a test.
    await alertSettingsOn(store.documents).set({
      guildId: 'g0',
      channelId: 'alerts-g0',
      roleId: null,
      silenceHours: 1,
    });
    await store.guilds.update('g0', (settings) => ({ ...settings, serverKey: 'server-key-g0' }));
    await store.hooks.save({
      hookId: 'hook-g0',
      guildId: 'g0',
      webhookId: 'wh_g0',
      secret: 'whsec_g0',
      events: ['modcall'],
      createdAt: time.now() - 10 * 60 * 60 * 1000,
    });
    await brokenFeedIn('g1');
    const { poster, posts } = posterHangingIn('none');
    await startMonitor(poster, `http://127.0.0.1:${address.port}`);

    // g0's test ping waits for the service; g1's alert does not wait for it.
    await time.advance(0, () => turnsUntil(() => posts.length > 0 && sockets.size > 0));
    expect(sockets.size).toBe(1);
    expect(posts.map((post) => post.channelId)).toEqual(['alerts-g1']);
  });
});
