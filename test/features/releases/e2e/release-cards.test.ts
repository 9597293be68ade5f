import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { autocomplete } from '../../../../fakes/discord/index.js';
import { commandOption, startAppHarness, type AppHarness } from './app-harness.js';

const MINUTE = 60_000;

let h: AppHarness;

beforeEach(async () => {
  h = await startAppHarness();
});

afterEach(async () => {
  try {
    expect(h.discord.violations).toEqual([]);
    expect(h.discord.unhandledRequests).toEqual([]);
    expectNoKeyLeaks();
  } finally {
    await h.stop();
  }
});

/** No key typed into a dialog appears in a log line, in anything sent to Discord, or in the store file's clear text. */
function expectNoKeyLeaks(): void {
  const seen = {
    logs: h.logs.text(),
    requests: JSON.stringify(h.discord.requests.map((request) => request.body)),
  };
  for (const [where, text] of Object.entries(seen)) {
    expect(h.typedKeys.filter((key) => text.includes(key)).length, `a key in ${where}`).toBe(0);
  }
}

/** Watches the app in #releases, pinging @Developers; returns the answer. */
async function watch(appId: number) {
  const answer = await h.run('app', 'watch', [
    commandOption.string('app', String(appId)),
    commandOption.channel('channel', h.channel('releases')),
    commandOption.role('role', h.role('Developers')),
  ]);
  await h.settle();
  return answer;
}

const polls = () =>
  h.service.requests.filter((request) => request.method === 'GET' && request.path.startsWith('/api/v1/apps'));

describe('/app key', () => {
  it('refuses a server key and garbage with an explanation, and stores a good key encrypted, never echoed', async () => {
    const serverKey = h.service.issueKey();
    const server = await h.setKey(serverKey);
    expect(server.ephemeral).toBe(true);
    expect(server.text).toMatch(/^That is a server key \(usk_…\): .* developer key .* starts with upk_/);
    expect((await h.setKey('hello there')).text).toMatch(
      /^That is not a developer key: developer keys start with upk_/,
    );
    expect((await h.setKey('upk_short')).text).toMatch(/too short/);
    expect(h.service.requests).toEqual([]);

    const revoked = h.service.issueDeveloperKey('Gone Studio');
    h.service.replaceDeveloperKey(revoked);
    expect((await h.setKey(revoked)).text).toMatch(/^The service does not accept this key \(401/);
    expect((await h.bot.apps.documents.readGuild(h.guild.id)).developerKey).toBeNull();

    const key = h.service.issueDeveloperKey('Lantern_Studio');
    const saved = await h.setKey(key);
    expect(saved.text).toBe(
      'Developer key saved for **Lantern\\_Studio**. It is stored encrypted. Next: /app list, then /app watch to post release cards.',
    );
    const stored = await h.bot.apps.documents.readGuild(h.guild.id);
    expect(stored.developerKey).toMatch(/^sealed:v1:/);
    expect(stored.developerKey).not.toContain(key.slice(4, 20));
    expect(stored.accountName).toBe('Lantern_Studio');

    // A member may not set it, and learns why.
    expect((await h.setKey(h.service.issueDeveloperKey(), 'member')).text).toBe(
      'You need the Manage Server permission to use this command.',
    );
    for (const typed of [key, serverKey]) {
      expect(h.discord.allMessages().some((message) => message.content.includes(typed))).toBe(false);
    }
  });
});

describe('release cards', () => {
  it('follow a review: one card, edited in place, one outcome that pings; no duplicate after a restart; one catch-up edit', async () => {
    const { appId } = await h.seedApp('Pricewise', [
      { version: '1.0', status: 'approved' },
      { version: '1.1', status: 'approved' },
      { version: '1.2', status: 'in_review', submission: { whatsNew: 'Taxes per region' } },
    ]);
    const watched = await watch(appId);
    expect(watched.text).toMatch(/^Release cards of \*\*Pricewise\*\* go to <#\d+>, one per version/);

    // First sight: the waiting version gets a card; the history gets none.
    const [card] = h.messages('releases');
    expect(h.messages('releases')).toHaveLength(1);
    expect(card?.embeds[0]).toMatchObject({ title: 'Pricewise 1.2', description: 'Waiting for review.' });
    expect(JSON.stringify(card?.embeds[0]?.fields)).toContain('`` in_review ``');
    expect(JSON.stringify(card?.embeds[0]?.fields)).toContain('Taxes per region');

    // The reviewers decide; within one poll the card is edited and one outcome pings @Developers.
    h.service.setVersionState(appId, '1.2', 'approved');
    await h.advance(MINUTE);
    const [edited, outcome, ...rest] = h.messages('releases');
    expect(rest).toEqual([]);
    expect(edited?.id).toBe(card?.id);
    expect(h.editsOf(edited ?? { id: '' })).toBe(1);
    expect(edited?.embeds[0]?.description).toBe('Review is over for this version.');
    expect(JSON.stringify(edited?.embeds[0]?.fields)).toContain('`` approved ``');
    const developers = h.role('Developers');
    expect(outcome?.content).toMatch(
      new RegExp(`^<@&${developers}> \\*\\*Pricewise 1\\.2\\*\\* left review: \`\` approved \`\``),
    );
    expect(outcome?.allowed_mentions).toEqual({ parse: [], roles: [developers] });

    // Nothing changes: more polls, no more messages or edits.
    await h.advance(3 * MINUTE);
    expect(h.messages('releases')).toHaveLength(2);
    expect(h.editsOf(card ?? { id: '' })).toBe(1);

    // Restart: the cards are known, nothing is posted again.
    await h.restart();
    await h.advance(MINUTE);
    expect(h.messages('releases')).toHaveLength(2);
    expect(h.editsOf(card ?? { id: '' })).toBe(1);

    // A new version goes through two steps while the bot is down: one new card, in its latest state only.
    await h.stopBot();
    h.service.addVersion(appId, { version: '1.3', status: 'submitted' });
    h.service.setVersionState(appId, '1.3', 'in_review');
    await h.restart();
    await h.advance(MINUTE);
    const afterRestart = h.messages('releases');
    expect(afterRestart).toHaveLength(3);
    expect(afterRestart[2]?.embeds[0]?.title).toBe('Pricewise 1.3');
    expect(JSON.stringify(afterRestart[2]?.embeds[0]?.fields)).toContain('`` in_review ``');
  });

  it('catch up with one edit per version after a change made while the bot was down', async () => {
    const { appId } = await h.seedApp('Pricewise', [{ version: '2.0', status: 'submitted' }]);
    await watch(appId);
    const [card] = h.messages('releases');
    expect(JSON.stringify(card?.embeds[0]?.fields)).toContain('`` submitted ``');

    await h.stopBot();
    await h.time.advance(30 * MINUTE, () => Promise.resolve());
    h.service.setVersionState(appId, '2.0', 'in_review');
    h.service.setVersionState(appId, '2.0', 'needs_changes');
    h.service.setVersionState(appId, '2.0', 'rejected');
    await h.restart();
    await h.advance(MINUTE);

    const [edited, outcome, ...rest] = h.messages('releases');
    expect(rest).toEqual([]);
    expect(edited?.id).toBe(card?.id);
    expect(h.editsOf(card ?? { id: '' })).toBe(1);
    expect(JSON.stringify(edited?.embeds[0]?.fields)).toContain('`` rejected ``');
    expect(outcome?.content).toMatch(/\*\*Pricewise 2\.0\*\* left review: `` rejected `` after 30 min/);
  });

  it('stop after a 401 with one admin message, and resume with a new key', async () => {
    const { key, appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'in_review' }]);
    await watch(appId);
    expect(h.messages('releases')).toHaveLength(1);

    const newKey = h.service.replaceDeveloperKey(key);
    await h.advance(MINUTE);
    const [, notice, ...rest] = h.messages('releases');
    expect(rest).toEqual([]);
    expect(notice?.content).toMatch(
      /^⚠️ Release cards are paused: the service no longer accepts the developer key \(401/,
    );
    expect(notice?.content).toContain('/app key');
    expect(notice?.allowed_mentions).toEqual({ parse: [] });

    const before = h.service.requests.length;
    await h.advance(10 * MINUTE);
    expect(h.service.requests.length).toBe(before);
    expect(h.messages('releases')).toHaveLength(2);
    const status = await h.run('status');
    expect(status.text).toContain('Developer key: refused by the service');
    expect(status.text).toContain('Release cards: 1 app(s) watched, paused until a new developer key is set.');
    const listed = await h.run('app', 'list');
    expect(listed.text).toMatch(/no longer accepts the stored developer key \(401/);
    expect(h.service.requests.length).toBe(before);

    expect((await h.setKey(newKey)).text).toMatch(/^Developer key saved .* Release cards resume with the next poll\.$/);
    h.service.setVersionState(appId, '1.0', 'approved');
    await h.settle();
    await h.advance(MINUTE);
    expect(h.messages('releases')).toHaveLength(3);
    expect((await h.run('status')).text).toMatch(/Release cards: 1 app\(s\) watched; last good poll <t:\d+:R>\./);
  });

  it('send nothing for 30 s after a 429 with retry-after: 30, and a command meanwhile says when to retry', async () => {
    const { key, appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'in_review' }]);
    await watch(appId);
    h.service.rateLimitNext(key, 30);
    await h.advance(MINUTE);
    const limitedAt = h.service.requests.at(-1);
    expect(limitedAt?.status).toBe(429);

    await h.advance(10_000);
    const meanwhile = await h.run('app', 'list');
    expect(meanwhile.text).toBe(
      'Could not list your apps: the service asked us to wait (429 with retry-after), so nothing was sent: try again in 20 s.',
    );
    await h.advance(19_000);
    expect((await h.run('app', 'list')).text).toMatch(/try again in 1 s\.$/);
    expect(h.service.requests.at(-1)).toEqual(limitedAt);
    expect((await h.run('status')).text).toMatch(
      /Release poller: 1 failed poll\(s\) in a row, last: the service is rate-limiting us: try again in 30 s\./,
    );

    // Exactly 30 s after the 429, requests go again.
    await h.advance(1_000);
    expect((await h.run('app', 'list')).text).toMatch(/^\*\*Apps of Lantern Studio\*\* \(1\)\n• \*\*Pricewise\*\*/);
    expect(h.service.requests.at(-1)?.at).toBe((limitedAt?.at ?? 0) + 30_000);
    await h.advance(MINUTE);
    expect((await h.run('status')).text).toMatch(/Release cards: 1 app\(s\) watched; last good poll <t:\d+:R>\./);
  });

  it('offer apps to autocomplete from the cache, without a request per keystroke', async () => {
    const { appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'approved' }]);
    const before = polls().length;
    for (const typed of ['p', 'pr', 'pri', 'pric']) {
      const outcome = await h.discord.dispatchInteraction(
        autocomplete({ name: 'app', subcommand: 'show', focused: 'app', typed, guildId: h.guild.id }),
      );
      expect(outcome.callback.data).toEqual({ choices: [{ name: `Pricewise · app ${appId}`, value: String(appId) }] });
    }
    expect(polls().length - before).toBe(1);
  });
});
