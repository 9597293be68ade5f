import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { AlertDesk } from '../../../../src/features/health/alert-desk.js';
import { alertSettingsOn } from '../../../../src/features/health/alert-settings.js';
import { HealthMonitor } from '../../../../src/features/health/health-monitor.js';
import { incidentsOn } from '../../../../src/features/health/incidents.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { IntakeFailures } from '../../../../src/intake/intake-failures.js';
import type { DocumentStore } from '../../../../src/store/documents.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { createSecretBox } from '../../../../src/store/secret-box.js';
import { createServiceClient } from '../../../../src/upstream/client.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { failReadsOf } from '../../../helpers/failing-documents.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { recordingPoster } from '../../../helpers/recording-poster.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

const CHECK_EVERY_MS = 30_000;

/** The health monitor's timer jobs when the store fails under them: logged, and run again at the next check. */
describe('the health monitor on a failing store', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;
  let monitor: HealthMonitor | undefined;
  let time: ManualTime;
  let logs: ReturnType<typeof captureLogs>;

  beforeEach(async () => {
    time = new ManualTime();
    logs = captureLogs();
    dir = makeTempDir();
    store = await openStore(`sqlite://${dir.path}/bot.sqlite`, STORE_MODULES, time.now);
  });

  afterEach(async () => {
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
      silenceHours: 12,
    });
    await store.deliveries.holdBrokenChannel({
      channelId: `feed-${guildId}`,
      guildId,
      status: 403,
      reason: 'Missing Access',
      since: time.now(),
    });
  };

  const startMonitor = (records: DocumentStore) => {
    const poster = recordingPoster();
    const settings = alertSettingsOn(records);
    const incidents = incidentsOn(records);
    monitor = new HealthMonitor({
      hooks: store.hooks,
      activity: store.activity,
      deliveries: store.deliveries,
      signals: store.signals,
      intakeFailures: new IntakeFailures(),
      incidents,
      settings,
      desk: new AlertDesk({ incidents, settings, poster, clock: time.now, logger: logs.logger }),
      documents: records,
      probe: {
        signals: store.signals,
        service: createServiceClient({ serviceUrl: 'http://127.0.0.1:9' }),
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
    return { poster, started: monitor.start() };
  };
  const settle = () => monitor!.settled();
  const alertedChannels = (poster: ReturnType<typeof recordingPoster>) =>
    poster.posts.map((post) => `${post.channelId} ${JSON.stringify(post.body.embeds)}`);

  it('a store that fails as it starts: logged, and the monitor starts at its next check', async () => {
    await brokenFeedIn('g1');
    let failOnce = true;
    const records = failReadsOf(store.documents, 'heartbeat', () => {
      const fail = failOnce;
      failOnce = false;
      return fail;
    });
    const { poster, started } = startMonitor(records);
    await started;
    await time.advance(0, settle);
    expect(records.failures).toBe(1);
    expect(logs.text()).toContain('the health monitor could not start; tried again at the next check');
    expect(poster.posts).toEqual([]);

    await time.advance(CHECK_EVERY_MS, settle);
    const alerts = alertedChannels(poster);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatch(/^alerts-g1 .*<#feed-g1>/);
  });

  it("one server whose check fails is logged and checked again; the other server's alert is posted meanwhile", async () => {
    await brokenFeedIn('g1');
    await brokenFeedIn('g2');
    // The first server's settings cannot be read at the first check (the monitor lists them, then reads each).
    let reads = 0;
    const records = failReadsOf(store.documents, 'alert_settings', (guildId) => guildId === 'g1' && (reads += 1) === 1);
    const { poster, started } = startMonitor(records);
    await started;
    await time.advance(0, settle);
    expect(records.failures).toBe(1);
    expect(alertedChannels(poster)).toHaveLength(1);
    expect(alertedChannels(poster)[0]).toMatch(/^alerts-g2 .*<#feed-g2>/);
    expect(logs.text()).toMatch(/"guildId":"g1".*health check failed; tried again later/);

    await time.advance(CHECK_EVERY_MS, settle);
    expect(alertedChannels(poster).map((alert) => alert.split(' ')[0])).toEqual(['alerts-g2', 'alerts-g1']);
  });
});
