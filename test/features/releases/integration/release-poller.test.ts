import Database from 'better-sqlite3';
import { Client, PermissionFlagsBits } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  startFakeDiscord,
  type AddedGuild,
  type FakeDiscord,
  type FakeMessage,
} from '../../../../fakes/discord/index.js';
import { startFakeService, type FakeService } from '../../../../fakes/service/index.js';
import { createPoster } from '../../../../src/discord/posting/poster.js';
import type { Watch } from '../../../../src/features/releases/app-documents.js';
import { describeReleaseStatus } from '../../../../src/features/releases/describe-releases.js';
import { DeveloperCache } from '../../../../src/features/releases/developer-cache.js';
import { ALERT_AFTER_FAILURES, type PollHealth } from '../../../../src/features/releases/poll-failures.js';
import { ReleasePoller } from '../../../../src/features/releases/release-poller.js';
import { createSecretBox } from '../../../../src/store/secret-box.js';
import { createDeveloperClient } from '../../../../src/upstream/developer-client.js';
import { openAppDocuments } from '../../../helpers/app-documents.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

const MINUTE = 60_000;
const SECRET = 'poller-test-secret-0123456789';

let time: ManualTime;
let service: FakeService;
let discord: FakeDiscord;
let guild: AddedGuild;
let client: Client;
let documents: Awaited<ReturnType<typeof openAppDocuments>>;
let poller: ReleasePoller;
let logs: ReturnType<typeof captureLogs>;
let key: string;
/** Keys of the other guilds a test adds: no more to be logged than the first. */
let otherKeys: string[];
let serviceUrl: string;

beforeEach(async () => {
  time = new ManualTime();
  service = await startFakeService({ clock: time.now });
  serviceUrl = service.baseUrl;
  discord = await startFakeDiscord();
  guild = discord.addGuild({
    channels: [
      { name: 'releases' },
      { name: 'elsewhere' },
      { name: 'locked', denyBot: PermissionFlagsBits.SendMessages },
    ],
  });
  // Only the REST side of discord.js: the poller posts and edits, it needs no gateway.
  client = new Client({ intents: [], rest: { api: discord.apiUrl } });
  client.rest.setToken(discord.botToken);
  documents = await openAppDocuments('memory://');
  logs = captureLogs('debug');
  key = service.issueDeveloperKey('Lantern Studio');
  otherKeys = [];
  await documents.updateGuild(guild.id, (current) => ({ ...current, developerKey: createSecretBox(SECRET).seal(key) }));
  poller = makePoller(serviceUrl);
});

afterEach(async () => {
  await poller.stop();
  await client.destroy();
  await documents.close();
  await discord.close();
  await service.close();
  expect(discord.violations).toEqual([]);
  for (const developerKey of [key, ...otherKeys]) expect(logs.text()).not.toContain(developerKey);
});

/** What the poller told the health monitor, per call. */
let pollHealth: PollHealth[] = [];

function makePoller(url: string): ReleasePoller {
  return new ReleasePoller({
    onPollHealth: (_guildId, health) => pollHealth.push(health),
    documents,
    developer: createDeveloperClient({ serviceUrl: url, clock: time.now }),
    secrets: createSecretBox(SECRET),
    poster: createPoster(client),
    cache: new DeveloperCache(time.now),
    clock: time.now,
    timers: time,
    logger: logs.logger,
  });
}

const channel = (name: string) => guild.channels[name] ?? '';
const advance = (ms: number) => time.advance(ms, () => poller.settled());

async function watch(appId: number, channelName: string): Promise<void> {
  await watchIn(guild.id, channel(channelName), appId);
}

async function watchIn(guildId: string, channelId: string, appId: number): Promise<void> {
  const entry: Watch = {
    appId: String(appId),
    appName: `App ${appId}`,
    channelId,
    roleId: null,
    createdAt: time.now(),
    createdBy: '1',
    baseline: null,
  };
  await documents.updateGuild(guildId, (current) => ({
    ...current,
    watches: { ...current.watches, [entry.appId]: entry },
  }));
}

/**
 * A second Discord server with a developer key of its own and one watched app in #releases. It is added after
 * the first, so the store lists it after the first: what the first one's trouble could hold up.
 */
async function addSecondGuild(): Promise<{ guildId: string; channelId: string; appId: number }> {
  const second = discord.addGuild({ channels: [{ name: 'releases' }] });
  const channelId = second.channels['releases'] ?? '';
  const secondKey = service.issueDeveloperKey('Harbor Games');
  otherKeys.push(secondKey);
  await documents.updateGuild(second.id, (current) => ({
    ...current,
    developerKey: createSecretBox(SECRET).seal(secondKey),
  }));
  const appId = service.addApp(secondKey, { name: 'Tidewatch', versions: [{ version: '2.0', status: 'in_review' }] });
  await watchIn(second.id, channelId, appId);
  return { guildId: second.id, channelId, appId };
}

const stateOf = (message: FakeMessage | undefined) => JSON.stringify(message?.embeds[0]?.fields);
const detailReads = (appId: number) =>
  service.requests.filter((request) => request.path === `/api/v1/apps/${appId}`).length;

describe('the release poller', () => {
  it('raises one alert after repeated failures, shows it in /status, and clears it when polls succeed again', async () => {
    const appId = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'in_review' }] });
    await watch(appId, 'releases');
    await poller.stop();
    // Nothing listens there: every poll fails to reach the service.
    poller = makePoller('http://127.0.0.1:9');
    pollHealth = [];
    poller.start();
    await advance(ALERT_AFTER_FAILURES * MINUTE);
    // Quiet until the fifth failure in a row, then "failing" after each poll (the alert's count follows).
    expect(pollHealth[0]).toEqual({
      failing: true,
      failures: ALERT_AFTER_FAILURES,
      problem: 'could not reach the service at 127.0.0.1:9',
    });
    const failing = await documents.readGuild(guild.id);
    expect(failing.poll.failures).toBeGreaterThanOrEqual(ALERT_AFTER_FAILURES);
    expect(failing.poll.alertedAt).not.toBeNull();
    expect(logs.lines.filter((line) => line.includes('release poller alert'))).toHaveLength(1);
    expect(describeReleaseStatus(failing, true).join('\n')).toMatch(
      /Release poller: \d+ failed poll\(s\) in a row, last: could not reach the service at 127\.0\.0\.1:9\. ⚠️ Alert raised <t:\d+:R>\./,
    );

    await poller.stop();
    poller = makePoller(serviceUrl);
    poller.start();
    await advance(MINUTE);
    const healthy = await documents.readGuild(guild.id);
    expect(healthy.poll).toEqual({ lastGoodAt: time.now(), failures: 0, lastProblem: null, alertedAt: null });
    expect(pollHealth.at(-1)).toEqual({ failing: false });
    expect(discord.messages(channel('releases'))).toHaveLength(1);
  });

  it('posts a new card when the old one was deleted, and moves cards to a new channel', async () => {
    const appId = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'submitted' }] });
    await watch(appId, 'releases');
    poller.start();
    await advance(0);
    const [first] = discord.messages(channel('releases'));
    expect(first?.embeds[0]?.title).toBe('Pricewise 1.0');

    // Someone deleted the card in Discord: the edit finds no message, a new card is posted.
    await documents.updateCards(guild.id, String(appId), (cards) => {
      const card = cards.versions['1.0'];
      return card ? { ...cards, versions: { '1.0': { ...card, messageId: '123456789012345678' } } } : cards;
    });
    service.setVersionState(appId, '1.0', 'in_review');
    await advance(MINUTE);
    expect(discord.messages(channel('releases'))).toHaveLength(2);
    expect(discord.messages(channel('releases'))[1]?.embeds[0]?.title).toBe('Pricewise 1.0');

    await watch(appId, 'elsewhere');
    await documents.updateGuild(guild.id, (current) => {
      const moved = current.watches[String(appId)];
      return moved ? { ...current, watches: { [String(appId)]: { ...moved, baseline: [] } } } : current;
    });
    poller.pollSoon(guild.id, String(appId));
    await advance(0);
    expect(discord.messages(channel('elsewhere'))).toHaveLength(1);
  });

  it('polls again when started after a stop, as when this process loses the gateway lease and gets it back', async () => {
    const appId = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'submitted' }] });
    await watch(appId, 'releases');
    poller.start();
    await advance(0);
    expect(discord.messages(channel('releases'))).toHaveLength(1);

    // Lost, and regained before the stop has even finished: the poller ends up running, once.
    const stopping = poller.stop();
    poller.start();
    await stopping;
    await advance(0);
    await poller.stop();
    poller.start();
    service.setVersionState(appId, '1.0', 'approved');
    await advance(MINUTE);
    const [card, outcome, ...rest] = discord.messages(channel('releases'));
    expect(rest).toEqual([]);
    expect(stateOf(card)).toContain('`` approved ``');
    expect(outcome?.content).toMatch(/^\*\*Pricewise 1\.0\*\* left review: `` approved ``/);
  });

  it('posts an outcome Discord refused once at the next poll, exactly once', async () => {
    const appId = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'in_review' }] });
    await watch(appId, 'releases');
    poller.start();
    await advance(0);
    service.setVersionState(appId, '1.0', 'approved');
    discord.failRequests({ status: 403, count: 1, match: new RegExp(`/channels/${channel('releases')}/messages$`) });
    await advance(MINUTE);
    expect(discord.messages(channel('releases'))).toHaveLength(1);
    expect((await documents.readGuild(guild.id)).poll.lastProblem).toMatch(/could not post or edit release cards/);
    await advance(MINUTE);
    await advance(MINUTE);
    const [card, outcome, ...rest] = discord.messages(channel('releases'));
    expect(rest).toEqual([]);
    expect(JSON.stringify(card?.embeds[0]?.fields)).toContain('`` approved ``');
    expect(outcome?.content).toMatch(/^\*\*Pricewise 1\.0\*\* left review: `` approved ``/);
  });

  it('keeps going when Discord refuses one channel or an app is gone, and says so in /status', async () => {
    const locked = service.addApp(key, { name: 'Locked', versions: [{ version: '1.0', status: 'in_review' }] });
    const open = service.addApp(key, { name: 'Open', versions: [{ version: '2.0', status: 'in_review' }] });
    await watch(locked, 'locked');
    await watch(open, 'releases');
    await watch(999, 'releases');
    poller.start();
    await advance(0);
    expect(discord.messages(channel('releases'))).toHaveLength(1);
    const status = describeReleaseStatus(await documents.readGuild(guild.id), true).join('\n');
    expect(status).toContain(
      `could not post or edit release cards in <#${channel('locked')}>: Discord 403: Missing Permissions`,
    );
    expect(status).toContain('App 999 (app 999) is no longer among the account');
  });

  it("keeps other guilds' cards updating while one guild's key waits out a 429 with retry-after: 3600", async () => {
    const held = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'in_review' }] });
    await watch(held, 'releases');
    const other = await addSecondGuild();
    poller.start();
    await advance(0);
    expect(discord.messages(channel('releases'))).toHaveLength(1);
    expect(discord.messages(other.channelId)).toHaveLength(1);

    service.rateLimitNext(key, 3600);
    await advance(MINUTE);
    expect(service.requests.filter((request) => request.status === 429)).toHaveLength(1);
    const heldReads = detailReads(held);

    // The other guild's reviews move on, minute after minute, and its cards follow each time.
    service.setVersionState(other.appId, '2.0', 'approved');
    await advance(MINUTE);
    const [card, outcome] = discord.messages(other.channelId);
    expect(stateOf(card)).toContain('`` approved ``');
    expect(outcome?.content).toMatch(/^\*\*Tidewatch 2\.0\*\* left review: `` approved ``/);
    service.addVersion(other.appId, { version: '2.1', status: 'in_review' });
    await advance(5 * MINUTE);
    expect(discord.messages(other.channelId).map((message) => message.embeds[0]?.title)).toContain('Tidewatch 2.1');

    // The held key sends nothing until the hour is over, then its card catches up.
    service.setVersionState(held, '1.0', 'approved');
    await advance(50 * MINUTE);
    expect(detailReads(held)).toBe(heldReads);
    expect(stateOf(discord.messages(channel('releases'))[0])).not.toContain('`` approved ``');
    await advance(5 * MINUTE);
    expect(detailReads(held)).toBeGreaterThan(heldReads);
    expect(stateOf(discord.messages(channel('releases'))[0])).toContain('`` approved ``');
    expect(service.requests.filter((request) => request.status === 429)).toHaveLength(1);
  });

  it('waits out a retry-after of more than an hour for one hour', async () => {
    const appId = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'in_review' }] });
    await watch(appId, 'releases');
    poller.start();
    await advance(0);
    service.rateLimitNext(key, 9_999_999_999);
    await advance(MINUTE);
    service.setVersionState(appId, '1.0', 'approved');
    await advance(60 * MINUTE);
    const [card, outcome] = discord.messages(channel('releases'));
    expect(stateOf(card)).toContain('`` approved ``');
    expect(outcome?.content).toMatch(/^\*\*Pricewise 1\.0\*\* left review: `` approved ``/);
  });

  it("keeps polling, and other guilds' cards updating, while the store refuses one guild's writes", async () => {
    const dir = makeTempDir();
    try {
      await poller.stop();
      await documents.close();
      documents = await openAppDocuments(`sqlite://${dir.path}/bot.sqlite`);
      await documents.updateGuild(guild.id, (current) => ({
        ...current,
        developerKey: createSecretBox(SECRET).seal(key),
      }));
      const failing = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'in_review' }] });
      await watch(failing, 'releases');
      const other = await addSecondGuild();
      poller = makePoller(serviceUrl);
      poller.start();
      await advance(0);

      // Another connection makes every write of the first guild's record fail, as a broken disk would.
      const db = new Database(`${dir.path}/bot.sqlite`);
      db.exec(
        `CREATE TRIGGER refuse_guild BEFORE UPDATE ON record WHEN NEW.kind = 'app_guild' AND NEW.key = '${guild.id}' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`,
      );
      service.setVersionState(other.appId, '2.0', 'approved');
      await advance(MINUTE);
      expect(stateOf(discord.messages(other.channelId)[0])).toContain('`` approved ``');
      expect(logs.lines.filter((line) => line.includes('release poll failed unexpectedly')).length).toBeGreaterThan(0);

      // Repaired: the first guild's polls succeed again, and the poller never stopped.
      db.exec('DROP TRIGGER refuse_guild');
      db.close();
      service.setVersionState(failing, '1.0', 'approved');
      await advance(MINUTE);
      expect(stateOf(discord.messages(channel('releases'))[0])).toContain('`` approved ``');
      expect((await documents.readGuild(guild.id)).poll).toMatchObject({ failures: 0, lastGoodAt: time.now() });
    } finally {
      await poller.stop();
      dir.remove();
    }
  });

  it("keeps other guilds' cards updating when one guild's stored record is damaged", async () => {
    const dir = makeTempDir();
    try {
      await poller.stop();
      await documents.close();
      documents = await openAppDocuments(`sqlite://${dir.path}/bot.sqlite`, logs.logger);
      const other = await addSecondGuild();
      // Listed first (its key sorts before any snowflake), and not a guild's record: damaged, or written by hand.
      const db = new Database(`${dir.path}/bot.sqlite`);
      db.prepare("INSERT INTO record (kind, key, value) VALUES ('app_guild', '0', ?)").run('{"guildId":"0"}');
      db.close();
      poller = makePoller(serviceUrl);
      poller.start();
      await advance(0);
      expect(discord.messages(other.channelId)).toHaveLength(1);
      expect(logs.text()).toContain("a guild's developer-API record could not be read; it is not polled");
      expect(logs.text()).not.toContain('release poller cycle failed');
    } finally {
      await poller.stop();
      dir.remove();
    }
  });

  it("keeps other guilds' cards updating while Discord does not answer in the channel of one guild's key notice", async () => {
    // The first guild's key was refused, and its notice not posted yet (the bot stopped between the two).
    const appId = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'in_review' }] });
    await watch(appId, 'releases');
    await documents.updateGuild(guild.id, (current) => ({
      ...current,
      keyRefusal: { status: 403, at: time.now(), noticePosted: false },
    }));
    const other = await addSecondGuild();
    discord.hangRequests({ match: new RegExp(`^/channels/${channel('releases')}/messages$`) });
    poller.start();
    // Not waiting for the poller to settle: the notice's post hangs.
    await time.advance(0, () => Promise.resolve());
    const [card] = await discord.waitForMessages(other.channelId, 1, 5_000);
    expect(card?.embeds[0]?.title).toBe('Tidewatch 2.0');

    // Discord answers again: the notice is posted, once.
    discord.clearFaults();
    const [notice] = await discord.waitForMessages(channel('releases'), 1, 10_000);
    expect(notice?.content).toMatch(/^⚠️ Release cards are paused/);
  });

  it('says when the stored key cannot be decrypted, and stops for a 403 with one notice', async () => {
    const appId = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'in_review' }] });
    await watch(appId, 'releases');
    await documents.updateGuild(guild.id, (current) => ({
      ...current,
      developerKey: createSecretBox('another-secret-0123456789').seal(key),
    }));
    poller.start();
    await advance(0);
    expect((await documents.readGuild(guild.id)).poll.lastProblem).toBe(
      "the stored developer key cannot be decrypted with this bot's SECRET_KEY: run /app key",
    );

    await documents.updateGuild(guild.id, (current) => ({
      ...current,
      developerKey: createSecretBox(SECRET).seal(key),
    }));
    service.revokeDeveloperAccess(key);
    await advance(MINUTE);
    const [notice] = discord.messages(channel('releases'));
    expect(notice?.content).toMatch(
      /^⚠️ Release cards are paused: the service says this account's developer access was revoked \(403\)/,
    );
    const requests = service.requests.length;
    await advance(5 * MINUTE);
    expect(service.requests).toHaveLength(requests);
    expect(discord.messages(channel('releases'))).toHaveLength(1);
    expect(describeReleaseStatus(await documents.readGuild(guild.id), false)[0]).toMatch(
      /^Developer key: refused by the service <t:\d+:R>, developer access revoked \(403\): run \/app key\.$/,
    );
  });
});
