import { Client } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startFakeDiscord, type FakeDiscord } from '../../../../fakes/discord/index.js';
import { startFakeService, type FakeService } from '../../../../fakes/service/index.js';
import { createPostFinder } from '../../../../src/discord/posting/find-post.js';
import { createPoster } from '../../../../src/discord/posting/poster.js';
import { DeveloperCache } from '../../../../src/features/releases/developer-cache.js';
import { ReleasePoller } from '../../../../src/features/releases/release-poller.js';
import { createSecretBox } from '../../../../src/store/secret-box.js';
import { createDeveloperClient } from '../../../../src/upstream/developer-client.js';
import { openAppDocuments } from '../../../helpers/app-documents.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { ManualTime } from '../../../helpers/manual-time.js';

const MINUTE = 60_000;
const SECRET = 'resend-test-secret-0123456789';
/** Discord recognises a nonce this long here (and the bot is told so): the next poll comes after it. */
const NONCE_WINDOW_MS = 500;

let time: ManualTime;
let service: FakeService;
let discord: FakeDiscord;
let client: Client;
let documents: Awaited<ReturnType<typeof openAppDocuments>>;
let poller: ReleasePoller;
let guildId: string;
let channelId: string;
let key: string;

beforeEach(async () => {
  time = new ManualTime();
  service = await startFakeService({ clock: time.now });
  // Discord's ids and its nonce window on the bot's clock: a message made now has an id of now.
  discord = await startFakeDiscord({ clock: time.now, nonceWindowMs: NONCE_WINDOW_MS });
  const guild = discord.addGuild({ channels: [{ name: 'releases' }] });
  guildId = guild.id;
  channelId = guild.channels['releases'] ?? '';
  // One try of half a second: a post held longer is given up, its answer lost.
  client = new Client({ intents: [], rest: { api: discord.apiUrl, timeout: 500, retries: 0 } });
  client.rest.setToken(discord.botToken);
  documents = await openAppDocuments('memory://');
  key = service.issueDeveloperKey('Lantern Studio');
  await documents.updateGuild(guildId, (current) => ({ ...current, developerKey: createSecretBox(SECRET).seal(key) }));
  poller = new ReleasePoller({
    documents,
    developer: createDeveloperClient({ serviceUrl: service.baseUrl, clock: time.now }),
    secrets: createSecretBox(SECRET),
    poster: createPoster(client),
    findPosted: createPostFinder(client, discord.botToken),
    nonceWindowMs: NONCE_WINDOW_MS,
    cache: new DeveloperCache(time.now),
    clock: time.now,
    timers: time,
    logger: captureLogs().logger,
  });
});

afterEach(async () => {
  await poller.stop();
  await client.destroy();
  await documents.close();
  await discord.close();
  await service.close();
  expect(discord.violations).toEqual([]);
});

const advance = (ms: number) => time.advance(ms, () => poller.settled());

/** Watches the app in #releases. */
async function watch(appId: number): Promise<void> {
  const entry = {
    appId: String(appId),
    appName: `App ${appId}`,
    channelId,
    roleId: null,
    createdAt: time.now(),
    createdBy: '1',
    baseline: null,
  };
  await documents.updateGuild(guildId, (current) => ({ ...current, watches: { [entry.appId]: entry } }));
}

/** The next post to #releases gets no answer in time; Discord makes it when {@link answerLate} is called. */
const loseNextAnswer = () =>
  discord.hangRequests({ count: 1, match: new RegExp(`^/channels/${channelId}/messages$`), afterwards: 'answer' });

async function answerLate(count: number): Promise<void> {
  discord.clearFaults();
  await discord.waitForMessages(channelId, count);
}

describe('a release card or outcome whose answer was lost, tried again at the next poll', () => {
  it('posts the card once', async () => {
    const appId = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'in_review' }] });
    await watch(appId);
    loseNextAnswer();
    poller.start();
    await advance(0);
    await answerLate(1);

    await advance(MINUTE);
    const messages = discord.messages(channelId);
    expect(messages.map((message) => message.embeds[0]?.title)).toEqual(['Pricewise 1.0']);
    const card = (await documents.readCards(guildId, String(appId))).versions['1.0'];
    expect(card?.messageId).toBe(messages[0]?.id);
  });

  it('announces the outcome once', async () => {
    const appId = service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'in_review' }] });
    await watch(appId);
    poller.start();
    await advance(0);
    expect(discord.messages(channelId)).toHaveLength(1);

    service.setVersionState(appId, '1.0', 'approved');
    loseNextAnswer();
    await advance(MINUTE);
    await answerLate(2);

    await advance(MINUTE);
    await advance(MINUTE);
    const [card, outcome, ...rest] = discord.messages(channelId);
    expect(rest).toEqual([]);
    expect(JSON.stringify(card?.embeds[0]?.fields)).toContain('`` approved ``');
    expect(outcome?.content).toMatch(/^\*\*Pricewise 1\.0\*\* left review: `` approved ``/);
    const stored = (await documents.readCards(guildId, String(appId))).versions['1.0'];
    expect(stored?.outcomeAnnounced).toBe('approved');
  });
});
