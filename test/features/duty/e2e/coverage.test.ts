import { afterEach, describe, expect, it } from 'vitest';

import type { FakeMessage } from '../../../../fakes/discord/index.js';
import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { dutyModule } from '../../../../src/features/duty/store/duty-module.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { commandOption, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { alertsOf } from '../../../helpers/alerts.js';

const SERVER = 'srv_cover';
/** A minute of /duty minimum's `after`, shortened: after:5 is one second. */
const MINUTE_MS = 200;

function staff(n: number) {
  return { discordId: String(284756102938475000n + BigInt(n)), name: `Staff_${n}` };
}

function shiftStarted(id: number, n: number) {
  const { discordId, name } = staff(n);
  const startedAt = Date.now() - 60_000;
  return {
    event: 'shift.started' as const,
    server: SERVER,
    data: { shift: { id, discordId, name, robloxId: String(9000 + n), startedAt, endedAt: null, seconds: null } },
  };
}

function shiftEnded(id: number, n: number) {
  const { discordId, name } = staff(n);
  const startedAt = Date.now() - 60_000;
  return {
    event: 'shift.ended' as const,
    server: SERVER,
    data: { shift: { id, discordId, name, robloxId: String(9000 + n), startedAt, endedAt: Date.now(), seconds: 60 } },
  };
}

function sessionStarted(id: number) {
  return {
    event: 'session.started' as const,
    server: SERVER,
    data: {
      session: {
        id,
        name: `Evening_patrol ${id}`,
        message: 'Join us',
        startedBy: staff(1),
        startedAt: Date.now() - 1_000,
        endedAt: null,
        endedBy: null,
        peakPlayers: 12,
      },
    },
  };
}

function sessionEnded(id: number) {
  return {
    event: 'session.ended' as const,
    server: SERVER,
    data: { session: { id, name: `Evening_patrol ${id}`, endedAt: Date.now() }, stats: { joins: 20, cases: 1 } },
  };
}

/** /duty minimum end to end: deliveries through the intake, the record's writer, the guard, the alert channel. */
describe('the coverage guard', () => {
  let h: AdminHarness;
  let webhookId = '';

  const start = async () => {
    h = await startAdminHarness({ timings: { duty: { minuteMs: MINUTE_MS }, record: { writeEveryMs: 100 } } });
    await h.setup(h.service.issueKey());
    const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
  };

  afterEach(async () => {
    await h.stop();
  });

  const alertChannel = () => h.channel('general');
  const moderators = () => h.guild.roles['Moderators'] ?? '';
  const setAlerts = () =>
    h.run('alerts', 'set', [
      commandOption.channel('channel', alertChannel()),
      commandOption.role('role', moderators()),
    ]);
  const coverage = () => alertsOf(h.discord, alertChannel(), 'Not enough staff on shift');
  const coverageAlerts = (): FakeMessage[] => coverage().messages();
  /**
   * The coverage alerts the bot created in the alert channel (other incidents, such as the deliveries held for want
   * of a feed channel here, left out): each a ping of the alert role; an edit pings nobody.
   */
  const posts = () =>
    h.discord.requests.filter(
      (request) =>
        request.method === 'POST' &&
        request.path === `/channels/${alertChannel()}/messages` &&
        JSON.stringify(request.body).includes('Not enough staff on shift'),
    );
  /** The last coverage alert once its title is `title`. */
  const alertTitled = (title: string) => coverage().lastTitled(title);
  /** Waits until the record holds `n` open shifts and `sessions` running sessions. */
  const recorded = (n: number, sessions: number) =>
    h.discord.waitFor(
      async () =>
        (await h.bot.store.of(recordModule).openShifts(h.guild.id)).length === n &&
        (await h.bot.store.of(recordModule).runningSessions(h.guild.id)).length === sessions,
      10_000,
      `${n} open shifts and ${sessions} running sessions recorded`,
    );
  const uncoveredSince = async () => (await h.bot.store.of(dutyModule).coverageOf(h.guild.id)).uncoveredSince;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  it('alerts once when a session runs short for longer than after, edits it as shifts change, resolves when covered', async () => {
    await start();
    await setAlerts();
    const set = await h.run('duty', 'minimum', [commandOption.integer('staff', 2), commandOption.integer('after', 5)]);
    expect(set.ephemeral).toBe(true);
    expect(set.text).toBe(
      'While a session runs, at least 2 staff should be on shift: an alert when fewer are, for more than 5 minutes. ' +
        `A shift open over 16 h does not count. The alert goes to <#${alertChannel()}>, pinging <@&${moderators()}> ` +
        'once: one message, edited as shifts start and end, resolved when enough staff are on shift or the session ends.',
    );
    const postsBefore = posts().length;

    // One of two on shift, and no session yet: nothing is short.
    await h.service.deliver(webhookId, shiftStarted(1, 1));
    await recorded(1, 0);
    await sleep(1_500);
    expect(await uncoveredSince()).toBeNull();
    expect(coverageAlerts()).toHaveLength(0);

    // The session starts: short since now, and no alert before `after` (one second here) has passed.
    await h.service.deliver(webhookId, sessionStarted(7));
    await recorded(1, 1);
    await h.discord.waitFor(async () => (await uncoveredSince()) !== null, 5_000, 'the shortfall noted');
    expect(coverageAlerts()).toHaveLength(0);

    const alert = await alertTitled('Not enough staff on shift: 1 (minimum 2)');
    const since = (await uncoveredSince()) ?? 0;
    expect(alert.api.content).toBe(`<@&${moderators()}>`);
    expect(alert.allowed_mentions).toEqual({ parse: [], roles: [moderators()] });
    expect(alert.api.embeds[0]?.description).toContain(
      '**1 of 2** staff on shift while a session runs (Evening\\_patrol 7)',
    );
    expect(alert.api.embeds[0]?.description).toContain(`short since <t:${Math.floor(since / 1000)}:R>`);
    expect(posts()).toHaveLength(postsBefore + 1);
    // Posted only once the guild had been short for `after` (5 shortened minutes).
    expect((posts().at(-1)?.time ?? 0) - since).toBeGreaterThanOrEqual(5 * MINUTE_MS);

    // Shift changes while short: the same message edited, no second alert and no second ping.
    await h.service.deliver(webhookId, shiftEnded(1, 1));
    const nobody = await alertTitled('Not enough staff on shift: 0 (minimum 2)');
    expect(nobody.id).toBe(alert.id);
    await h.service.deliver(webhookId, shiftStarted(2, 2));
    const one = await alertTitled('Not enough staff on shift: 1 (minimum 2)');
    expect(one.id).toBe(alert.id);
    expect(await uncoveredSince()).toBe(since);

    // Covered again: the alert is resolved in place.
    await h.service.deliver(webhookId, shiftStarted(3, 3));
    const resolved = await alertTitled('Resolved: Not enough staff on shift: 1 (minimum 2)');
    expect(resolved.id).toBe(alert.id);
    expect(resolved.api.embeds[0]?.description).toMatch(/^\*\*Resolved after /);
    expect(resolved.api.content).toBe('');
    expect(await uncoveredSince()).toBeNull();
    expect(coverageAlerts()).toHaveLength(1);
    expect(posts()).toHaveLength(postsBefore + 1);
    expect(h.discord.violations).toEqual([]);
  });

  it('resolves the alert when the session ends while short, and alerts anew at the next shortfall', async () => {
    await start();
    await setAlerts();
    await h.run('duty', 'minimum', [commandOption.integer('staff', 1), commandOption.integer('after', 0)]);
    await h.service.deliver(webhookId, sessionStarted(8));
    const alert = await alertTitled('Not enough staff on shift: 0 (minimum 1)');
    expect(alert.api.embeds[0]?.description).toContain('**0 of 1** staff on shift');

    await h.service.deliver(webhookId, sessionEnded(8));
    const resolved = await alertTitled('Resolved: Not enough staff on shift: 0 (minimum 1)');
    expect(resolved.id).toBe(alert.id);
    expect(await uncoveredSince()).toBeNull();
    // With no session running the guild is no longer watched.
    await h.discord.waitFor(
      () => h.bot.coverage?.watched().includes(h.guild.id) === false,
      5_000,
      'the guild no longer watched',
    );

    // A new session short of staff is a new occurrence: a new alert.
    await h.service.deliver(webhookId, sessionStarted(9));
    const again = await alertTitled('Not enough staff on shift: 0 (minimum 1)');
    expect(again.id).not.toBe(alert.id);
    expect(coverageAlerts()).toHaveLength(2);
  });

  it('posts no second alert after a restart while short, and keeps editing the first', async () => {
    await start();
    await setAlerts();
    await h.run('duty', 'minimum', [commandOption.integer('staff', 3), commandOption.integer('after', 1)]);
    await h.service.deliver(webhookId, sessionStarted(10));
    await h.service.deliver(webhookId, shiftStarted(1, 1));
    const alert = await alertTitled('Not enough staff on shift: 1 (minimum 3)');
    const since = await uncoveredSince();
    const postsBefore = posts().length;

    await h.restart();
    // The guard looks at the guild at its start: still short, the same alert.
    await h.discord.waitFor(
      () => h.bot.coverage?.watched().includes(h.guild.id) ?? false,
      10_000,
      'the guild watched again after the restart',
    );
    await h.bot.coverage?.idle();
    await h.bot.health?.settled();
    await sleep(1_000);
    expect(coverageAlerts()).toHaveLength(1);
    expect(posts()).toHaveLength(postsBefore);
    expect(await uncoveredSince()).toBe(since);

    await h.service.deliver(webhookId, shiftStarted(2, 2));
    const two = await alertTitled('Not enough staff on shift: 2 (minimum 3)');
    expect(two.id).toBe(alert.id);
    await h.service.deliver(webhookId, sessionEnded(10));
    const resolved = await alertTitled('Resolved: Not enough staff on shift: 2 (minimum 3)');
    expect(resolved.id).toBe(alert.id);
    expect(posts()).toHaveLength(postsBefore);
  });

  it('keeps the wait through a restart: a shortfall noted before is alerted once its wait ends, not a wait later', async () => {
    await start();
    await setAlerts();
    // after:10 is two seconds here.
    await h.run('duty', 'minimum', [commandOption.integer('staff', 1), commandOption.integer('after', 10)]);
    await h.service.deliver(webhookId, sessionStarted(11));
    await h.discord.waitFor(async () => (await uncoveredSince()) !== null, 10_000, 'the shortfall noted');
    const since = (await uncoveredSince()) ?? 0;
    // Down for longer than the wait: the shortfall is past it when the bot comes back.
    await h.restart(() => sleep(2_500));
    const back = Date.now();
    await alertTitled('Not enough staff on shift: 0 (minimum 1)');
    expect(posts()).toHaveLength(1);
    expect((posts()[0]?.time ?? 0) - since).toBeGreaterThanOrEqual(10 * MINUTE_MS);
    // Not a whole wait after the restart: the wait was not started anew.
    expect((posts()[0]?.time ?? 0) - back).toBeLessThan(10 * MINUTE_MS);
    expect(await uncoveredSince()).toBe(since);
  });

  it('refuses a minimum or a wait out of bounds and members without Manage Server, and turns off with staff:0', async () => {
    await start();
    const tooMany = await h.run('duty', 'minimum', [commandOption.integer('staff', 51)]);
    expect(tooMany.ephemeral).toBe(true);
    expect(tooMany.text).toBe('The minimum is 1 to 50 staff (staff:0 stops it). Nothing was saved.');
    const negative = await h.run('duty', 'minimum', [commandOption.integer('staff', -1)]);
    expect(negative.text).toBe('The minimum is 1 to 50 staff (staff:0 stops it). Nothing was saved.');
    const tooLong = await h.run('duty', 'minimum', [
      commandOption.integer('staff', 2),
      commandOption.integer('after', 241),
    ]);
    expect(tooLong.text).toBe('The wait (after) is 0 to 240 minutes. Nothing was saved.');
    const member = await h.run('duty', 'minimum', [commandOption.integer('staff', 2)], 'member');
    expect(member.text).toBe('You need the Manage Server permission to use this command.');
    expect((await h.bot.store.of(dutyModule).coverageOf(h.guild.id)).minimum).toBeNull();

    // Without an alert channel it says where to set one; the default wait is 10 minutes.
    const set = await h.run('duty', 'minimum', [commandOption.integer('staff', 2)]);
    expect(set.text).toBe(
      'While a session runs, at least 2 staff should be on shift: an alert when fewer are, for more than 10 minutes. ' +
        'A shift open over 16 h does not count. No alert channel is set yet: choose one with /alerts set, or the ' +
        'alert is kept until you do.',
    );
    expect((await h.bot.store.of(dutyModule).coverageOf(h.guild.id)).minimum).toEqual({ staff: 2, afterMinutes: 10 });
    const off = await h.run('duty', 'minimum', [commandOption.integer('staff', 0)]);
    expect(off.text).toBe('The minimum of 2 staff on shift is off: no alert when a session runs short of staff.');
    expect((await h.bot.store.of(dutyModule).coverageOf(h.guild.id)).minimum).toBeNull();
    expect((await h.run('duty', 'minimum', [commandOption.integer('staff', 0)])).text).toBe(
      'No minimum of staff is set.',
    );
    await h.discord.waitFor(
      async () =>
        (await h.bot.store.of(auditModule).latest(h.guild.id, 10)).some(
          (entry) => entry.action === '/duty minimum staff:2',
        ),
      5_000,
      'the minimum audited',
    );
  });
});
