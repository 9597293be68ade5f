import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { RequestRecord } from '../../../../fakes/service/index.js';
import { commandOption, PORTAL_FIELDS, startAppHarness, type AppHarness } from './app-harness.js';

const MINUTE = 60_000;
const APPS = 20;
const PENDING = 15;

let h: AppHarness;

beforeEach(async () => {
  h = await startAppHarness({ messagesPerFiveSeconds: 50 });
});

afterEach(async () => {
  try {
    expect(h.discord.violations).toEqual([]);
  } finally {
    await h.stop();
  }
});

/** The most requests the fake received in any 60 s, among `requests`. */
function busiestMinute(requests: readonly RequestRecord[]): number {
  return Math.max(
    0,
    ...requests.map((first) => requests.filter((r) => r.at >= first.at && r.at < first.at + MINUTE).length),
  );
}

const developerRequests = () => h.service.requests.filter((request) => request.path.startsWith('/api/v1/'));

describe('the request budget of one developer key', () => {
  it('keeps 20 watched apps within 30 polls a minute for 10 minutes, and within 60 a minute with commands', async () => {
    const { key, appId: first } = await h.seedApp('App 1', [{ version: '1.0', status: 'in_review' }]);
    const appIds = [first];
    for (let i = 2; i <= APPS; i += 1) {
      const status = i <= PENDING ? 'in_review' : 'approved';
      appIds.push(
        h.service.addApp(key, { name: `App ${i}`, versions: [{ version: '1.0', status, submission: PORTAL_FIELDS }] }),
      );
    }
    for (const appId of appIds) {
      const watched = await h.run('app', 'watch', [
        commandOption.string('app', String(appId)),
        commandOption.channel('channel', h.channel('releases')),
      ]);
      expect(watched.text).toMatch(/^Release cards of \*\*App \d+\*\*/);
      await h.settle();
    }
    // Watching 20 apps at once wants more than 30 requests in a minute: the poller waits for its share.
    await h.advance(2 * MINUTE);
    expect(h.messages('releases')).toHaveLength(APPS);

    // Ten minutes of polling alone.
    const from = h.time.now();
    await h.advance(10 * MINUTE);
    const polling = developerRequests().filter((request) => request.at >= from);
    expect(busiestMinute(polling)).toBeLessThanOrEqual(30);
    const detailsOf = (appId: number) => polling.filter((request) => request.path === `/api/v1/apps/${appId}`).length;
    // A waiting version is read every minute; an app with nothing waiting every 15 minutes.
    expect(detailsOf(first)).toBeGreaterThanOrEqual(9);
    expect(detailsOf(appIds[APPS - 1] ?? 0)).toBeLessThanOrEqual(1);
    expect(polling.filter((request) => request.path === '/api/v1/apps').length).toBeGreaterThanOrEqual(10);

    // Two minutes of commands on top: 48 a minute wanted, what is left of 60 given, the rest told when to retry.
    const busyFrom = h.time.now();
    const answers: string[] = [];
    for (let tick = 0; tick < 12; tick += 1) {
      for (let i = 0; i < 4; i += 1) {
        answers.push((await h.run('app', 'show', [commandOption.string('app', String(appIds[i] ?? 0))])).text);
        answers.push((await h.run('app', 'uploads')).text);
      }
      await h.advance(10_000);
    }
    const busy = developerRequests().filter((request) => request.at >= busyFrom);
    expect(busiestMinute(busy)).toBeLessThanOrEqual(60);
    expect(busiestMinute(busy)).toBeGreaterThan(30);
    expect(
      answers.filter((text) => /used its 60 requests of the last minute .* try again in \d+ s/.test(text)).length,
    ).toBeGreaterThan(0);
    expect(answers.filter((text) => text.startsWith('**App 1**')).length).toBeGreaterThan(0);
    expect(h.service.requests.filter((request) => request.status === 429)).toEqual([]);
    expect((await h.run('status')).text).toMatch(/Release cards: 20 app\(s\) watched; last good poll <t:\d+:R>\./);
  });
});
