import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { chatInputCommand, commandOption, type CommandOptionValue } from '../../../../fakes/discord/index.js';
import { digestModule } from '../../../../src/features/digest/store/digest-module.js';
import { nextDigestAt, WEEKDAYS } from '../../../../src/features/digest/weekly-schedule.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { startFeedHarness, type FeedHarness } from '../../../e2e/feed-harness.js';
import { alertsOf } from '../../../helpers/alerts.js';
import { downloadFiles } from '../../../helpers/downloaded-files.js';
import { decodePng } from '../../../helpers/png.js';

const HOUR = 3_600_000;
const SERVER = '4821337';

let h: FeedHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

function shift(id: string, shiftId: number, memberId: string, name: string, startedAt: number, hours: number) {
  const endedAt = startedAt + hours * HOUR;
  return {
    id,
    event: 'shift.ended',
    server: SERVER,
    at: endedAt,
    data: {
      shift: {
        id: shiftId,
        discordId: memberId,
        name,
        robloxId: `9${shiftId}`,
        startedAt,
        endedAt,
        seconds: hours * 3600,
      },
    },
  };
}

function caseMade(id: string, number: number, type: string, moderatorId: string, at: number) {
  return {
    id,
    event: 'case.created',
    server: SERVER,
    at,
    data: {
      case: {
        number,
        type,
        status: 'active',
        target: { robloxId: '2391045817', name: 'SpeedyRacer_09' },
        moderator: { discordId: moderatorId, name: 'Mod' },
        reason: 'ramming at spawn',
        evidence: null,
        inGame: true,
        createdAt: at,
        voidedAt: null,
        voidedBy: null,
      },
    },
  };
}

async function admin(harness: FeedHarness, name: string, subcommand: string, options: CommandOptionValue[]) {
  const outcome = await harness.discord.dispatchInteraction(
    chatInputCommand({ name, subcommand, options, as: 'admin', guildId: harness.guild.id }),
  );
  return outcome.reply?.content ?? '';
}

describe('the weekly digest', () => {
  it('is posted once at its hour with the week in it, its chart attached, and once after a crash that lost the answer', async () => {
    // Discord recognises a nonce for a few minutes; here for a moment, so the successor's send would land twice.
    h = await startFeedHarness({
      digestTimings: { checkEveryMs: 100, takenForMs: 500 },
      discord: { nonceWindowMs: 200 },
      nonceWindowMs: 200,
    });
    const harness = h;
    const guildId = harness.guild.id;
    const digestChannel = harness.channel('backup');
    const mira = harness.discord.addMember(guildId, { username: 'mira', roleIds: [harness.moderatorsRoleId] });
    const sam = harness.discord.addMember(guildId, { username: 'sam', roleIds: [harness.moderatorsRoleId] });
    const now = Date.now();
    expect(await harness.deliver(shift('s-1', 1, mira, 'Mira', now - 2 * 24 * HOUR, 3))).toBe(204);
    expect(await harness.deliver(shift('s-2', 2, mira, 'Mira', now - 24 * HOUR, 2.5))).toBe(204);
    expect(await harness.deliver(shift('s-3', 3, sam, 'Sam', now - 30 * HOUR, 1))).toBe(204);
    expect(await harness.deliver(caseMade('c-1', 1, 'warn', mira, now - 20 * HOUR))).toBe(204);
    expect(await harness.deliver(caseMade('c-2', 2, 'kick', sam, now - 10 * HOUR))).toBe(204);
    await harness.discord.waitFor(
      async () =>
        (await harness.bot.store.of(recordModule).leaderboard(guildId, 'shifts', { from: 0, to: now })).length === 2,
      10_000,
      "the record's writer merging the shifts",
    );

    expect(
      await admin(harness, 'quota', 'set', [
        commandOption.role('role', harness.moderatorsRoleId),
        commandOption.integer('hours', 4),
        commandOption.string('per', 'week'),
      ]),
    ).toContain('4 h a week');
    expect(
      await admin(harness, 'digest', 'set', [
        commandOption.channel('channel', digestChannel),
        commandOption.string('day', 'monday'),
        commandOption.integer('hour', 18),
        commandOption.string('timezone', 'Mars/Olympus'),
      ]),
    ).toContain('I do not know the time zone "Mars/Olympus"');
    expect(await harness.bot.store.of(digestModule).scheduleOf(guildId)).toBeUndefined();
    const weekday = WEEKDAYS[new Date(now).getUTCDay()] ?? 'monday';
    const set = await admin(harness, 'digest', 'set', [
      commandOption.channel('channel', digestChannel),
      commandOption.string('day', weekday),
      commandOption.integer('hour', 23),
    ]);
    expect(set).toMatch(new RegExp(`every ${weekday} at 23:00 \\(UTC\\)`));

    // The hour comes (here: moved to a moment from now, as the store keeps it).
    const schedule = await harness.bot.store.of(digestModule).scheduleOf(guildId);
    if (!schedule) throw new Error('no schedule');
    const weekEnd = Date.now() + 300;
    await harness.bot.store.of(digestModule).setSchedule({ ...schedule, nextAt: weekEnd });
    const [digest] = await harness.discord.waitForMessages(digestChannel, 1, 10_000);
    const embed = digest?.embeds[0];
    expect(embed?.title).toMatch(/^Weekly digest: /);
    expect(embed?.description).toBe(`The week to <t:${Math.floor(weekEnd / 1000)}:f>.`);
    const field = (name: string) => embed?.fields?.find((f) => f.name === name)?.value;
    expect(field('Hours on shift')).toBe(`**1.** <@${mira}>: 5.5 h\n**2.** <@${sam}>: 1.0 h\n2 on shift, 6.5 h in all`);
    expect(field('Quotas')).toBe(
      `<@&${harness.moderatorsRoleId}>: 4 h a week, this week: 1 of 2 met\n✅ <@${mira}> 5.5 h\n❌ <@${sam}> 1.0 h`,
    );
    expect(field('Cases')).toBe(`**2**: 1 kick · 1 warn\nMost made: <@${mira}> 1 · <@${sam}> 1`);
    expect(field('Modcalls')).toBe('No modcalls.');
    expect(embed?.image).toEqual({ url: 'attachment://week.png' });
    const [chart] = await downloadFiles(digest);
    expect(chart?.name).toBe('week.png');
    expect(decodePng(chart?.bytes ?? Buffer.alloc(0))).toMatchObject({ width: 800, height: 400 });
    // Moved on to the next time its day and hour come.
    const next = nextDigestAt(schedule.weekday, 23, 'UTC', weekEnd);
    await harness.discord.waitFor(
      async () => (await harness.bot.store.of(digestModule).scheduleOf(guildId))?.nextAt === next,
      5_000,
      'the schedule moved on',
    );

    // Once: later checks post nothing more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(harness.discord.messages(digestChannel)).toHaveLength(1);

    // A process posts it and dies before writing its id down: its successor finds the post and posts none.
    await harness.restart(() => {
      const db = new Database(harness.storeFile);
      db.prepare('UPDATE digest_post SET message_id = NULL, posted_at = NULL, asked_at = asked_at - 60000').run();
      db.prepare('UPDATE digest_schedule SET next_at = ?, try_at = ?').run(weekEnd, weekEnd);
      db.close();
      return Promise.resolve();
    });
    await harness.discord.waitFor(
      async () => (await harness.bot.store.of(digestModule).scheduleOf(guildId))?.nextAt === next,
      10_000,
      'the schedule moved on again',
    );
    expect(harness.discord.messages(digestChannel)).toHaveLength(1);
    expect(harness.logs.text()).not.toContain('weekly digest not posted');
    expect(harness.discord.violations).toEqual([]);
  });

  it('raises a health alert while Discord refuses its channel, posts it once allowed again, and resolves the alert', async () => {
    h = await startFeedHarness({
      digestTimings: { checkEveryMs: 100, takenForMs: 300, backoff: { baseMs: 300, capMs: 1_000 } },
    });
    const harness = h;
    const guildId = harness.guild.id;
    const digestChannel = harness.channel('backup');
    const alertChannel = harness.channel('other');
    expect(await admin(harness, 'alerts', 'set', [commandOption.channel('channel', alertChannel)])).toContain(
      `<#${alertChannel}>`,
    );
    const weekday = WEEKDAYS[new Date().getUTCDay()] ?? 'monday';
    expect(
      await admin(harness, 'digest', 'set', [
        commandOption.channel('channel', digestChannel),
        commandOption.string('day', weekday),
        commandOption.integer('hour', 23),
      ]),
    ).toContain(`every ${weekday} at 23:00`);

    // The bot loses access to the channel after /digest set accepted it; then the hour comes.
    harness.discord.failChannel(digestChannel, { status: 403 });
    const schedule = await harness.bot.store.of(digestModule).scheduleOf(guildId);
    if (!schedule) throw new Error('no schedule');
    await harness.bot.store.of(digestModule).setSchedule({ ...schedule, nextAt: Date.now() + 100 });
    const digestAlerts = alertsOf(harness.discord, alertChannel, 'weekly digest cannot be posted');
    const open = await digestAlerts.lastTitled(`The weekly digest cannot be posted in <#${digestChannel}>`);
    expect(open.api.embeds[0]?.description).toContain('Discord refused it: ');
    expect(open.api.embeds[0]?.description).toContain('/digest set');
    const status = await harness.discord.dispatchInteraction(
      chatInputCommand({ name: 'status', as: 'admin', guildId }),
    );
    expect(status.reply?.content ?? JSON.stringify(status.reply?.embeds)).toContain(
      `the weekly digest cannot be posted in <#${digestChannel}>`,
    );
    // Tried again meanwhile (its take goes stale: the channel is searched first, refused too), and still one
    // alert: edited, not posted again.
    await harness.discord.waitFor(
      () =>
        harness.discord.requests.filter(
          (request) => request.path === `/channels/${digestChannel}/messages` && request.status === 403,
        ).length >= 3,
      10_000,
      'the digest tried again',
    );
    expect(digestAlerts.messages()).toHaveLength(1);

    // The admin gives the access back: the digest is posted, once, and the alert says resolved.
    harness.discord.restoreChannel(digestChannel);
    await harness.discord.waitForMessages(digestChannel, 1, 10_000);
    await digestAlerts.lastTitled(`Resolved: The weekly digest cannot be posted in <#${digestChannel}>`);
    expect(digestAlerts.messages()).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(harness.discord.messages(digestChannel)).toHaveLength(1);
    expect(harness.discord.violations).toEqual([]);
  });

  it("posts a guild's digest at its hour while eleven guilds' channels refuse theirs: those back off, their admins are alerted, and one posts after its backoff once fixed", async () => {
    // A try of a refused guild every 2 to 4 s, then 3 to 6 s: far apart from the checks, every 100 ms.
    h = await startFeedHarness({
      digestTimings: { checkEveryMs: 100, takenForMs: 300, backoff: { baseMs: 4_000, capMs: 6_000 } },
      config: { METRICS_PORT: 0 },
    });
    const harness = h;
    const client = harness.bot.discord;
    if (!client) throw new Error('no Discord client');
    // Eleven more servers (more than the ten a check reads), each with a digest channel and an alert channel.
    const refused = Array.from({ length: 11 }, (_, i) =>
      harness.discord.addGuild({ name: `Refused ${i}`, channels: [{ name: 'digest' }, { name: 'alerts' }] }),
    );
    await harness.discord.waitFor(
      () => refused.every((guild) => client.guilds.cache.has(guild.id)),
      10_000,
      'the bot seeing the new servers',
    );
    const channelOf = (guild: (typeof refused)[number], name: string) => guild.channels[name] ?? '';
    const weekday = WEEKDAYS[new Date().getUTCDay()] ?? 'monday';
    const setDigest = (guildId: string, channelId: string) =>
      harness.discord.dispatchInteraction(
        chatInputCommand({
          name: 'digest',
          subcommand: 'set',
          options: [
            commandOption.channel('channel', channelId),
            commandOption.string('day', weekday),
            commandOption.integer('hour', 23),
          ],
          as: 'admin',
          guildId,
        }),
      );
    for (const guild of refused) {
      const alerts = await harness.discord.dispatchInteraction(
        chatInputCommand({
          name: 'alerts',
          subcommand: 'set',
          options: [commandOption.channel('channel', channelOf(guild, 'alerts'))],
          as: 'admin',
          guildId: guild.id,
        }),
      );
      expect(alerts.reply?.content).toContain(`<#${channelOf(guild, 'alerts')}>`);
      expect((await setDigest(guild.id, channelOf(guild, 'digest'))).reply?.content).toContain('every');
    }
    const healthyChannel = harness.channel('backup');
    expect((await setDigest(harness.guild.id, healthyChannel)).reply?.content).toContain('every');

    // The bot lost access to the eleven digest channels; then their hours come, and the healthy guild's after them.
    for (const guild of refused) harness.discord.failChannel(channelOf(guild, 'digest'));
    const hour = Date.now() + 300;
    for (const [i, guild] of [...refused, harness.guild].entries()) {
      const schedule = await harness.bot.store.of(digestModule).scheduleOf(guild.id);
      if (!schedule) throw new Error('no schedule');
      await harness.bot.store.of(digestModule).setSchedule({ ...schedule, nextAt: hour + i });
    }

    // The healthy guild's digest is posted at its hour, whatever the eleven do.
    const [digest] = await harness.discord.waitForMessages(healthyChannel, 1, 20_000);
    expect(digest?.embeds[0]?.title).toMatch(/^Weekly digest: /);
    // Each refused guild's admins hear of it in their alert channel.
    for (const guild of refused) {
      const alert = await alertsOf(harness.discord, channelOf(guild, 'alerts'), 'weekly digest').lastTitled(
        `The weekly digest cannot be posted in <#${channelOf(guild, 'digest')}>`,
        20_000,
      );
      expect(alert.api.embeds[0]?.description).toContain('Discord refused it: ');
    }

    // Refused, each backs off: tried again seconds later, not at every check.
    const refusals = (channelId: string) =>
      harness.discord.requests.filter(
        (request) => request.path === `/channels/${channelId}/messages` && request.status === 403,
      );
    const first = refused[0];
    if (!first) throw new Error('no refused guild');
    const firstChannel = channelOf(first, 'digest');
    await harness.discord.waitFor(() => refusals(firstChannel).length >= 2, 20_000, 'a second try of a refused digest');
    for (const guild of refused) {
      const times = refusals(channelOf(guild, 'digest')).map((request) => request.time);
      expect(times.length).toBeGreaterThanOrEqual(1);
      for (let i = 1; i < times.length; i += 1)
        expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(2_000);
    }
    const shown = await harness.discord.dispatchInteraction(
      chatInputCommand({ name: 'digest', subcommand: 'show', as: 'admin', guildId: first.id }),
    );
    expect(shown.reply?.content).toMatch(
      /could not be posted \(\d+ tr(y|ies); \/status says why\): tried again <t:\d+:R>\./,
    );
    const metricsHttp = harness.bot.metricsHttp;
    if (!metricsHttp) throw new Error('no metrics listener');
    const metrics = await (await fetch(`${metricsHttp.url}/metrics`)).text();
    const backoffs = Number(/^bridge_guild_backoffs_total\{task="digest"\} (\d+)$/m.exec(metrics)?.[1]);
    expect(backoffs).toBeGreaterThanOrEqual(12);

    // An admin gives the access back: the digest is posted at its next try (not before), once, and the alert resolved.
    const lastRefusal = refusals(firstChannel).at(-1)?.time ?? 0;
    harness.discord.restoreChannel(firstChannel);
    await harness.discord.waitForMessages(firstChannel, 1, 20_000);
    const posted = harness.discord.requests.find(
      (request) =>
        request.method === 'POST' && request.path === `/channels/${firstChannel}/messages` && request.status === 200,
    );
    expect((posted?.time ?? 0) - lastRefusal).toBeGreaterThanOrEqual(2_000);
    await alertsOf(harness.discord, channelOf(first, 'alerts'), 'weekly digest').lastTitled(
      `Resolved: The weekly digest cannot be posted in <#${firstChannel}>`,
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(harness.discord.messages(firstChannel)).toHaveLength(1);
    expect(harness.discord.messages(healthyChannel)).toHaveLength(1);
    expect(harness.discord.violations).toEqual([]);
  }, 60_000);

  it('refuses a channel where it cannot attach its chart, and stops when turned off', async () => {
    h = await startFeedHarness({ denyBot: { other: BigInt(1 << 15) } });
    const harness = h;
    expect(
      await admin(harness, 'digest', 'set', [
        commandOption.channel('channel', harness.channel('other')),
        commandOption.string('day', 'monday'),
        commandOption.integer('hour', 18),
        commandOption.string('timezone', 'Europe/Berlin'),
      ]),
    ).toContain('I am missing Attach Files there');
    expect(await admin(harness, 'digest', 'show', [])).toBe('The weekly digest is off: turn it on with /digest set.');
    expect(
      await admin(harness, 'digest', 'set', [
        commandOption.channel('channel', harness.channel('backup')),
        commandOption.string('day', 'monday'),
        commandOption.integer('hour', 18),
        commandOption.string('timezone', 'Europe/Berlin'),
      ]),
    ).toContain('every monday at 18:00 (Europe/Berlin)');
    expect(await admin(harness, 'digest', 'show', [])).toMatch(/^Every monday at 18:00 \(Europe\/Berlin\) in <#/);
    expect(await admin(harness, 'digest', 'off', [])).toBe('The weekly digest is off.');
    expect(await admin(harness, 'quota', 'list', [])).toBe('No quotas yet: set one with /quota set.');
  });
});
