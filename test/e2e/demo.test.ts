import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIEmbed } from 'discord.js';
import { chromium, type Browser, type Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { signedHeaders } from '../../scripts/simulate/post-delivery.js';
import { findChromium } from '../helpers/find-chromium.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { runSimulator, startDemoProcess, type DemoProcess } from './demo-process.js';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOT = 'test-artifacts/preview.png';
/** The demo's colours: modcall embeds (src/feed/embeds/colours.ts) and the Moderators role (demo/demo-guild.ts). */
const MODCALL_BAR = 'rgb(235, 69, 158)';
const MODERATORS_COLOUR = 'rgb(230, 126, 34)';

interface StatusChannel {
  id: string;
  name: string;
  routed: boolean;
  messages: number;
  embeds: number;
}
interface Status {
  flowing: boolean;
  channels: StatusChannel[];
  intakeUrl: string;
}
interface ChannelMessages {
  id: string;
  name: string;
  messages: Array<{ id: string; content: string; embeds: APIEmbed[]; files: string[] }>;
}

/** The page's window, as far as these checks need it (the project compiles without DOM types). */
interface PageGlobals {
  getComputedStyle(element: unknown): { getPropertyValue(name: string): string };
}

/** A computed style of the element, read in the page. */
const styleOf = (locator: Locator, property: string) =>
  locator.evaluate(
    (element, name) => (globalThis as unknown as PageGlobals).getComputedStyle(element).getPropertyValue(name),
    property,
  );

let dir: ReturnType<typeof makeTempDir>;
let demo: DemoProcess;
let previewUrl: string;
let webhookUrl: string;
const secretFile = () => join(dir.path, 'webhook-secret');

const getJson = async <T>(path: string): Promise<T> => (await fetch(new URL(path, previewUrl))).json() as Promise<T>;

/** Every embed footer of the guild, for counting how often a delivery id was posted. */
async function footers(): Promise<string[]> {
  const channels = await getJson<ChannelMessages[]>('/api/messages');
  return channels.flatMap((channel) =>
    channel.messages.flatMap((message) => message.embeds.map((embed) => embed.footer?.text ?? '')),
  );
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  dir = makeTempDir('bridge-demo-test-');
  demo = startDemoProcess(['--fast', '--port', '0', '--state-dir', dir.path]);
  previewUrl = (await demo.waitForLine(/^demo: preview: (http:\/\/127\.0\.0\.1:\d+\/)/, 30_000))[1] ?? '';
  webhookUrl = (await demo.waitForLine(/^demo: webhook address \(for npm run simulate\): (\S+)$/, 30_000))[1] ?? '';
}, 40_000);

afterAll(async () => {
  // Whatever happened above, nothing of the demo outlives the suite.
  await demo?.stop('SIGKILL', 1_000);
  dir?.remove();
});

describe('npm run demo', () => {
  it('reaches "feed flowing": every routed channel of the fake Discord has messages', async () => {
    await demo.waitForLine(/^demo: feed flowing: every routed channel has messages/, 30_000);
    const status = await getJson<Status>('/api/status');
    expect(status.flowing).toBe(true);
    expect(status.intakeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const routed = status.channels.filter((channel) => channel.routed).map((channel) => channel.name);
    expect(routed.sort()).toEqual(['mod-log', 'modcalls', 'sessions', 'shifts']);
    for (const channel of status.channels.filter((c) => c.routed))
      expect(channel.messages, `#${channel.name}`).toBeGreaterThan(0);
    // Set up through the admin's commands, each answered with its success line.
    const text = demo.lines.join('\n');
    expect(text).toContain('/setup modal submitted → Server key saved.');
    expect(text).toContain('/feed mention event:modcall role:@Moderators → modcall now pings @Moderators.');
    expect(text).toMatch(/\/webhook test → Ping received and verified/);
    // The secret went to a file, never to the screen.
    const secret = readFileSync(secretFile(), 'utf8').trim();
    expect(secret.length).toBeGreaterThan(8);
    expect(text + demo.stderr()).not.toContain(secret);
  }, 35_000);

  it("shows the admin's lookup and leaderboard from the community record in a panel of their own", async () => {
    const [, player = ''] = await demo.waitForLine(
      /^demo: the admin reads the record: \/case lookup player:(\S+) → /,
      30_000,
    );
    await demo.waitForLine(/^demo: \/leaderboard shifts period:30-days → Hours on shift, the last 30 days$/, 15_000);
    const channels = await getJson<ChannelMessages[]>('/api/messages');
    const panel = channels.find((channel) => channel.name === 'only-you-can-see-these');
    const [lookup, board] = panel?.messages ?? [];
    expect(lookup?.embeds[0]?.title).toMatch(/ \(\d+\): \d+ cases?$/);
    expect(lookup?.embeds[0]?.title?.replace(/\\/g, '')).toContain(player);
    expect(board?.embeds[0]?.description).toMatch(/^\*\*1\.\*\* <@\d+> \(.+\): \d+\.\d h/);
  }, 35_000);

  it("shows the on-duty board and the week's digest, its chart drawn, in the staff room", async () => {
    await demo.waitForLine(/^demo: \/duty board channel:#staff-room → /, 30_000);
    await demo.waitForLine(/^demo: the demo moves the digest's hour to now/, 15_000);
    const staffRoom = async () =>
      (await getJson<ChannelMessages[]>('/api/messages')).find((channel) => channel.name === 'staff-room')?.messages ??
      [];
    await expect
      .poll(async () => (await staffRoom()).map((message) => message.embeds[0]?.title ?? ''), { timeout: 20_000 })
      .toEqual([expect.stringMatching(/^On duty now: \d+$/), expect.stringMatching(/^Weekly digest: /)]);

    const browser: Browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(previewUrl);
      const chart = page.locator('section.channel[data-channel-name="staff-room"] img.embed-image').first();
      await chart.waitFor({ state: 'attached', timeout: 10_000 });
      // The chart is loaded from the fake Discord's files, as Discord's CDN would serve it.
      await expect
        .poll(() => chart.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth))
        .toBe(800);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it("shows the latest session's thread: its log, then its after-action report", async () => {
    expect(demo.lines.join('\n')).toContain(
      "/feed threads event:session on:true → Each session's card now opens a thread",
    );
    const thread = async () =>
      (await getJson<ChannelMessages[]>('/api/messages')).find((channel) => channel.name === 'thread-latest-session')
        ?.messages ?? [];
    // A story is a session of about 13 events: its end comes within a story's length at --fast. The stories all
    // happened over the last hours on one game server, so a session's log holds what overlapped it from others too.
    const isReport = (title: string | undefined) => /^After-action report: /.test(title ?? '');
    // One reading, kept: the latest session changes as the stories go on, so a second reading may show a newer
    // thread whose session has not ended yet.
    const messages = await until(
      async () => {
        const read = await thread();
        return read.some((message) => isReport(message.embeds[0]?.title)) && read;
      },
      45_000,
      "a session's thread with its after-action report",
    );
    const [log] = messages;
    const reports = messages.filter((message) => isReport(message.embeds[0]?.title));
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(log?.embeds[0]?.title).toBe('Session log');
    expect(log?.embeds[0]?.description?.split('\n').length).toBeGreaterThan(2);
    expect(report?.embeds[0]?.fields?.map((field) => field.name)).toEqual([
      'Duration',
      'Peak players',
      'Joins',
      'Cases',
      'Modcalls',
      'Staff on shift',
    ]);
  }, 60_000);

  it('shows the channels in a browser as Discord draws them, live', async () => {
    const browser: Browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('dialog', (dialog) => {
        errors.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await page.goto(previewUrl);
      const modcalls = page.locator('section.channel[data-channel-name="modcalls"]');
      await modcalls.locator('.embed').first().waitFor({ timeout: 10_000 });
      // Every routed channel has a full session by now.
      await page
        .locator('section.channel[data-channel-name="sessions"] .embed-title', { hasText: 'Session ended' })
        .first()
        .waitFor({ timeout: 15_000 });

      const titles = await page.locator('.embed-title').allTextContents();
      // Cards follow their subject: a shift's or session's start card shows its end once it came.
      expect(titles).toEqual(expect.arrayContaining(['Modcall', 'Shift ended']));
      expect(titles.some((title) => /^Session ended · /.test(title))).toBe(true);
      expect(titles.some((title) => /^Case #\d+ · Warn · Voided$/.test(title))).toBe(true);
      // Escaped names come out as written: no backslashes, no markdown characters left over.
      expect(titles.join('\n')).not.toMatch(/\\|\*\*/);

      const modcall = modcalls.locator('.message').first();
      // The role ping, highlighted in the role's colour.
      const mention = modcall.locator('.message-content .mention.role');
      await expect.poll(() => mention.textContent()).toBe('@Moderators');
      expect(await styleOf(mention, 'color')).toBe(MODERATORS_COLOUR);
      // The colour bar.
      const embed = modcall.locator('.embed').first();
      expect(await styleOf(embed, 'border-left-color')).toBe(MODCALL_BAR);
      // Fields: name and value, the inline ones side by side; the caller is a link to the Roblox profile.
      const caller = embed.locator('.embed-field', { hasText: 'Caller' });
      expect(await caller.locator('.embed-field-value a.md-link').getAttribute('href')).toMatch(
        /^https:\/\/www\.roblox\.com\/users\/\d+\/profile$/,
      );
      const called = embed.locator('.embed-field', { hasText: 'Called' });
      const [callerBox, calledBox] = [await caller.boundingBox(), await called.boundingBox()];
      expect(callerBox && calledBox && Math.abs(callerBox.y - calledBox.y) < 2 && calledBox.x > callerBox.x).toBe(true);
      // Timestamps: `<t:…:f> (<t:…:R>)` as a date and a relative time; the embed timestamp in the footer.
      const calledText = (await called.locator('.embed-field-value').textContent()) ?? '';
      expect(calledText).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M \((\d+ \w+ ago|in \d+ \w+)\)$/);
      expect(await embed.locator('.embed-footer').textContent()).toMatch(
        /^Server \d+ · Delivery dlv_\w+•(Today|Yesterday) at \d{1,2}:\d{2} [AP]M$/,
      );
      // User mentions render as names.
      const staff = page
        .locator('section.channel[data-channel-name="shifts"] .embed-field-value .mention.user')
        .first();
      expect(await staff.textContent()).toMatch(/^@\S/);
      expect(await page.locator('body').textContent()).not.toMatch(/<t:\d+|<@&?\d+>/);

      // The living feed: a modcall card a moderator claimed (its buttons stay until it is resolved), and a
      // voided case's card turned grey in place, with the short reply that points at it.
      await demo.waitForLine(/^demo: a moderator \(Officer Reyes\) claimed a modcall card/, 15_000);
      const claimed = modcalls.locator('.message', { hasText: 'Claimed by' }).first();
      await claimed.waitFor({ timeout: 10_000 });
      expect(await claimed.locator('.embed-field-value', { hasText: 'Claimed by' }).textContent()).toMatch(
        /^Claimed by @Officer Reyes · .+ after the call$/,
      );
      expect(await claimed.locator('.message-button').allTextContents()).toEqual(['Claim', 'Resolve']);
      const modLog = page.locator('section.channel[data-channel-name="mod-log"]');
      const voided = modLog.locator('.embed-title', { hasText: /^Case #\d+ · \w+ · Voided$/ }).first();
      await voided.waitFor({ timeout: 15_000 });
      const voidedTitle = (await voided.textContent()) ?? '';
      const reply = modLog.locator('.message-reply', { hasText: voidedTitle }).first();
      await reply.waitFor({ timeout: 10_000 });
      expect(await reply.textContent()).toBe(`↪ replying to ${voidedTitle}`);

      // Live: a later message appears without a reload.
      const before = await page.locator('.message').count();
      await expect.poll(() => page.locator('.message').count(), { timeout: 10_000 }).toBeGreaterThan(before);

      mkdirSync('test-artifacts', { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: false });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('posts each good delivery of the simulator once', async () => {
    const result = await runSimulator([
      '--url',
      webhookUrl,
      '--secret-file',
      secretFile(),
      '--event',
      'modcall',
      '--count',
      '3',
      '--rate',
      '20',
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('simulate: all 3 accepted');
    const ids = [...result.stdout.matchAll(/\b(dlv_sim_[0-9a-f-]{36})\b/g)].map((match) => match[1] ?? '');
    expect(ids).toHaveLength(3);
    expect(result.stdout).not.toContain(readFileSync(secretFile(), 'utf8').trim());
    const count = (all: string[], id: string) => all.filter((footer) => footer.endsWith(`Delivery ${id}`)).length;
    await until(
      async () => {
        const all = await footers();
        return ids.every((id) => count(all, id) >= 1);
      },
      15_000,
      'the simulated modcalls in the feed',
    );
    // A moment later still exactly once each.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const all = await footers();
    for (const id of ids) expect(count(all, id), id).toBe(1);
  }, 40_000);

  it('has every --bad delivery of the simulator refused with the expected status, and none posted', async () => {
    const result = await runSimulator(['--url', webhookUrl, '--secret-file', secretFile(), '--bad', '--rate', '50']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    for (const name of [
      'unsigned',
      'stale',
      'future',
      'tampered',
      'wrong-secret',
      'not-json',
      'not-an-envelope',
      'too-large',
      'unknown-address',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${name} .* ok  \\d+ ms$`, 'm'));
    }
    expect(result.stdout).toMatch(/^ {2}stale .*expect 401 stale_timestamp\s+got 401 stale_timestamp /m);
    expect(result.stdout).toMatch(/^ {2}not-json .*expect 400 invalid_json\s+got 400 invalid_json /m);
    expect(result.stdout).toMatch(/simulate: all 11 answered as expected/);
    expect((await footers()).some((footer) => footer.includes('dlv_sim_bad_'))).toBe(false);

    // And with a wrong secret, good deliveries are refused: the simulator says so and fails.
    const wrong = await runSimulator([
      '--url',
      webhookUrl,
      '--secret',
      'not-the-secret',
      '--event',
      'modcall',
      '--count',
      '1',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/REFUSED 401 signature_mismatch/);
  }, 40_000);

  it('escapes whatever an embed holds (no markup from delivery content)', async () => {
    const hostile = '<img src=x onerror="document.title=\'pwned\'">';
    const body = JSON.stringify({
      id: 'dlv_xss_probe',
      event: 'modcall',
      server: '1',
      at: Date.now(),
      data: { caller: { robloxId: `1"><script>document.title='pwned'</script>`, name: hostile }, at: Date.now() },
    });
    const secret = readFileSync(secretFile(), 'utf8').trim();
    const answer = await fetch(webhookUrl, {
      method: 'POST',
      headers: signedHeaders('modcall', body, secret, Math.floor(Date.now() / 1000)),
      body,
    });
    expect(answer.status).toBe(204);
    await until(
      async () => (await footers()).some((footer) => footer.endsWith('Delivery dlv_xss_probe')),
      15_000,
      'the probe in the feed',
    );

    const browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.goto(previewUrl);
      const probe = page.locator('.embed', { hasText: 'dlv_xss_probe' });
      await probe.waitFor({ timeout: 10_000 });
      expect(await probe.locator('img, script').count()).toBe(0);
      expect(await probe.textContent()).toContain(hostile);
      expect(await page.title()).not.toBe('pwned');
    } finally {
      await browser.close();
    }
  }, 40_000);

  it('shows a release card that follows its version through review, and the outcome that pings @Developers', async () => {
    const releases = async () =>
      (await getJson<ChannelMessages[]>('/api/messages')).find((channel) => channel.name === 'releases')?.messages ??
      [];
    // The demo submits 1.2, moves it into review and approves it, one step every 2.5 s; the card follows.
    const outcome = await until(
      async () => (await releases()).find((message) => message.content.includes('Patrol Planner 1.2** left review')),
      30_000,
      'the outcome of Patrol Planner 1.2 in #releases',
    );
    expect(outcome.content).toMatch(/^<@&\d+> \*\*Patrol Planner 1\.2\*\* left review: `` approved ``/);
    const cards = (await releases()).filter((message) => message.embeds[0]?.title === 'Patrol Planner 1.2');
    // One card for the version, edited in place from "submitted" to "approved": never a card per step.
    expect(cards).toHaveLength(1);
    expect(JSON.stringify(cards[0]?.embeds[0]?.fields)).toContain('`` approved ``');
    expect(demo.lines.join('\n')).toMatch(
      /\/app watch app:Patrol Planner channel:#releases role:@Developers → Release cards of/,
    );
  }, 40_000);

  it('shows in #staff-log a leave request approved on its card, and a promotion that changed the rank role', async () => {
    // The step's last line.
    await demo.waitForLine(/^demo: Riley Banks's rank roles now: @Officer$/, 60_000);
    const text = demo.lines.join('\n');
    expect(text).toMatch(
      /^demo: \/staff promote member:@Riley Banks to:@Officer reason:.+ → Promoted @Riley Banks to @Officer\./m,
    );
    expect(text).toMatch(
      /^demo: Riley Banks asks \/leave request from:\d{4}-\d\d-\d\d to:\d{4}-\d\d-\d\d reason:family visit → Leave of absence request #1 \(\d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d, 3 days\) is posted in #staff-log/m,
    );
    expect(text).toMatch(
      /^demo: the admin approves leave request #1 with its Approve button → the card says: Approved, starts \d{4}-\d\d-\d\d \(approved by @server-admin\)$/m,
    );
    expect(text).toContain(
      '/staff ranks roles:@Cadet @Officer @Sergeant → The rank ladder, lowest first: @Cadet → @Officer → @Sergeant.',
    );
    expect(text).not.toContain('the staff lifecycle stopped');

    const staffLog =
      (await getJson<ChannelMessages[]>('/api/messages')).find((channel) => channel.name === 'staff-log')?.messages ??
      [];
    expect(staffLog.map((message) => message.embeds[0]?.title)).toEqual(['Leave of absence · request #1', 'Promotion']);
    const [leave, promotion] = staffLog.map((message) => message.embeds[0]?.fields ?? []);
    const field = (fields: APIEmbed['fields'], name: string) => fields?.find((f) => f.name === name)?.value;
    expect(field(leave, 'State')).toMatch(/^Approved, starts <t:\d+:D> \(approved by <@\d+>\)$/);
    expect(field(leave, 'Reason')).toBe('family visit');
    expect(field(promotion, 'Rank')).toMatch(/^<@&\d+> → <@&\d+>$/);
    expect(field(promotion, 'Reason')).toBe('Steady shifts and a clean record');

    // As Discord draws them: names for the mentions, and the leave card's buttons gone once it was decided.
    const browser: Browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      await page.goto(previewUrl);
      const channel = page.locator('section.channel[data-channel-name="staff-log"]');
      const card = channel.locator('.message', { hasText: 'request #1' });
      // Visible: a channel no feed goes to is drawn once it has messages.
      await card.waitFor({ timeout: 10_000 });
      expect(await card.locator('.message-button').count()).toBe(0);
      expect(await card.locator('.embed-field-value').allTextContents()).toContainEqual(
        expect.stringMatching(/^Approved, starts .+ \(approved by @server-admin\)$/),
      );
      const promoted = channel.locator('.message', { hasText: 'Promotion' });
      expect(await promoted.locator('.embed-field-value').allTextContents()).toEqual(
        expect.arrayContaining(['@Riley Banks', '@Cadet → @Officer']),
      );
      mkdirSync('test-artifacts', { recursive: true });
      await channel.screenshot({ path: 'test-artifacts/staff-log.png' });
    } finally {
      await browser.close();
    }
  }, 90_000);

  it('turns the conduct guard on in #oversight: one alert for a burst of bans, edited in place as it grows', async () => {
    await demo.waitForLine(/^demo: \/conduct role role:@Admin → Conduct alerts ping @Admin, /, 60_000);
    await demo.waitForLine(
      /^demo: \/conduct channel channel:#oversight → Conduct alerts now go to #oversight: /,
      15_000,
    );
    const burst = 'bans or kicks by one moderator (burst: 5 within 10 min)';
    await demo.waitForLine(
      new RegExp(`^demo: a conduct alert in #oversight: Conduct: 5 ${escapeRegExp(burst)}$`),
      45_000,
    );
    await demo.waitForLine(/^demo: the alert grows in place \(one message\): Conduct: 6 bans /, 45_000);

    const oversight = (await getJson<ChannelMessages[]>('/api/messages')).find(
      (channel) => channel.name === 'oversight',
    );
    // One message per incident: the alert of five was edited to six, never posted again.
    const alerts = (oversight?.messages ?? []).filter((message) =>
      message.embeds[0]?.footer?.text?.startsWith('Conduct guard'),
    );
    expect(alerts).toHaveLength(1);
    expect(oversight?.messages).toHaveLength(1);
    const [alert] = alerts;
    expect(alert?.content).toMatch(/^<@&\d+>$/);
    expect(alert?.embeds[0]?.title).toBe(`Conduct: 6 ${burst}`);
    const description = alert?.embeds[0]?.description ?? '';
    expect(description).toMatch(/^Moderator: <@\d+>$/m);
    const listed = [...description.matchAll(/^• .*: ban of .*, \[?#(\d+) \(/gm)].map((match) => Number(match[1]));
    expect(listed).toEqual([9001, 9002, 9003, 9004, 9005, 9006]);

    // In the browser, the alert names the role and the moderator, and says it was edited.
    const browser: Browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      await page.goto(previewUrl);
      const shown = page.locator('section.channel[data-channel-name="oversight"] .message').first();
      await shown.waitFor({ timeout: 10_000 });
      expect(await shown.locator('.message-content .mention.role').textContent()).toBe('@Admin');
      expect(await shown.locator('.embed-description').textContent()).toContain('Moderator: @Deputy Kane');
      expect(await shown.locator('.message-buttons .message-button').allTextContents()).toEqual([
        'Acknowledge',
        'Dismiss',
      ]);
      expect(await shown.locator('.message-edited').count()).toBe(1);
    } finally {
      await browser.close();
    }
  }, 90_000);

  it("shows the admin's /case evidence answer, with the evidence pack's HTML file, in the replies panel", async () => {
    const [, number = '', title = '', file = ''] = await demo.waitForLine(
      /^demo: \/case evidence number:(\d+) → (Case #\d+ · ban · server \d+) \(file: (\S+)\)$/,
      60_000,
    );
    expect(Number(number)).toBeGreaterThanOrEqual(9001);
    expect(file).toMatch(new RegExp(`^case-\\d+-${number}-evidence\\.html$`));
    const panel = (await getJson<ChannelMessages[]>('/api/messages')).find(
      (channel) => channel.name === 'only-you-can-see-these',
    );
    const answers = (panel?.messages ?? []).filter((message) => message.embeds[0]?.title === title);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.files).toEqual([file]);

    // The file is listed under the answer as Discord lists it, and opens the evidence pack.
    const browser: Browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      await page.goto(previewUrl);
      const link = page.locator('section.channel[data-channel-name="only-you-can-see-these"] a.message-file', {
        hasText: file,
      });
      await link.waitFor({ timeout: 10_000 });
      const href = (await link.getAttribute('href')) ?? '';
      const served = await fetch(href);
      expect(served.status).toBe(200);
      const html = await served.text();
      expect(html).toMatch(/^<!doctype html>/i);
      expect(html).toContain(`<h1>Evidence pack: case #${number}</h1>`);
      expect(html).toContain('Mass RDM at spawn');
    } finally {
      await browser.close();
    }
  }, 90_000);

  it('stops cleanly on SIGINT: exit code 0, no process left', async () => {
    const code = await demo.stop('SIGINT', 10_000);
    expect(code, demo.stderr()).toBe(0);
    expect(demo.lines.at(-1)).toBe('demo: stopped');
    // An orphaned helper (tsx's esbuild service) notices its parent is gone within moments; give it those.
    const alive = await until(
      () => Promise.resolve(!demo.groupAlive() || undefined),
      3_000,
      "the demo's process group to end",
    ).catch(() => demo.describeGroup());
    expect(alive, 'processes of the demo still running').toBe(true);
    // Its servers are gone too.
    await expect(fetch(previewUrl)).rejects.toThrow();
    await expect(fetch(webhookUrl, { method: 'POST' })).rejects.toThrow();
  }, 15_000);
});
