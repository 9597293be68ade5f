import { afterEach, describe, expect, it } from 'vitest';

import { commandOption } from '../../../../fakes/discord/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { runFeedCommand, startFeedHarness, type FeedHarness } from '../../../e2e/feed-harness.js';
import { clickButton } from '../../../helpers/click-button.js';
import { mentionsAllowedUnnamed } from '../../../helpers/mentions-allowed.js';

const SERVER = '4821337';

function shift(id: string, memberId: string, startedAt: number, endedAt: number | null) {
  return {
    id,
    event: endedAt === null ? 'shift.started' : 'shift.ended',
    server: SERVER,
    at: endedAt ?? startedAt,
    data: {
      shift: {
        id: 51,
        discordId: memberId,
        name: 'Mira',
        robloxId: '88112233',
        startedAt,
        endedAt,
        seconds: endedAt === null ? null : Math.round((endedAt - startedAt) / 1000),
      },
    },
  };
}

function modcall(id: string, callerId: string) {
  const at = Date.now();
  return {
    id,
    event: 'modcall',
    server: SERVER,
    at,
    data: { caller: { robloxId: callerId, name: `caller_${callerId}` }, at },
  };
}

/**
 * Duty-aware paging end to end: a modcall pings the staff on shift first, its role after role-after minutes
 * unclaimed, then the escalation role; a "minute" lasts a second here.
 */
describe('a modcall with on-duty-first', () => {
  let h: FeedHarness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it('pings the staff on shift, then its role, then the escalation role; a claim stops the steps; nobody on shift pings the role at once', async () => {
    h = await startFeedHarness({ escalationTimings: { minuteMs: 1_000, checkEveryMs: 50 } });
    const harness = h;
    const moderators = harness.moderatorsRoleId;
    const leads = harness.guild.roles['Leads'] ?? '';
    const mira = harness.discord.addMember(harness.guild.id, { username: 'mira', roleIds: [moderators] });
    const started = Date.now() - 3_600_000;
    expect(await harness.deliver(shift('shift-on', mira, started, null))).toBe(204);
    await harness.discord.waitFor(
      async () => (await harness.bot.store.of(recordModule).openShifts(harness.guild.id)).length === 1,
      10_000,
      "the record's writer merging the shift",
    );

    const answer = await runFeedCommand(harness, 'mention', [
      commandOption.string('event', 'modcall'),
      commandOption.boolean('on-duty-first', true),
      commandOption.integer('role-after', 1),
      commandOption.integer('escalate-after', 2),
      commandOption.role('escalate-role', leads),
    ]);
    expect(answer).toBe(
      `A new modcall pings the staff on shift (at most 10; its role at once when nobody is on shift), and its role 1 min later if nobody claimed it. ` +
        `A modcall nobody claims within 2 min gets one reply that pings <@&${leads}>.`,
    );

    const channel = harness.channel('modcalls');
    expect(await harness.deliver(modcall('call-1', '1001'))).toBe(204);
    const [card] = await harness.discord.waitForMessages(channel, 1, 10_000);
    expect(card?.content).toBe(`<@${mira}>`);
    // Exactly who it pings: the staff on shift, not the role its text does not name.
    expect(card?.allowed_mentions).toEqual({ parse: [], users: [mira] });
    const [, rolePing, escalation] = await harness.discord.waitForMessages(channel, 3, 10_000);
    expect(rolePing?.content).toBe(
      `<@&${moderators}> Modcall from caller\\_1001 unclaimed by the staff on shift for 1 min.`,
    );
    expect(rolePing?.allowed_mentions).toEqual({ parse: [], roles: [moderators], replied_user: false });
    expect(rolePing?.body['message_reference']).toMatchObject({ message_id: card?.id });
    expect(escalation?.content).toContain(`<@&${leads}>`);
    // Each step once, however long it stays unclaimed.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(harness.discord.messages(channel)).toHaveLength(3);

    // Claimed by the member on shift before role-after: neither the role nor the escalation role is pinged.
    expect(await harness.deliver(modcall('call-2', '1002'))).toBe(204);
    const [, , , second] = await harness.discord.waitForMessages(channel, 4, 10_000);
    if (!second) throw new Error('no second card');
    // Confirmed (and its card recorded) once nothing is open.
    await harness.discord.waitFor(
      async () => (await harness.bot.store.deliveries.countOpen()) === 0,
      10_000,
      'confirmed',
    );
    const claim = await clickButton(harness.discord, harness.guild.id, second, 'Claim', { userId: mira });
    expect(claim.reply?.content ?? '').not.toContain('no longer tracked');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(harness.discord.messages(channel)).toHaveLength(4);

    // Nobody on shift: the role at once, as without on-duty-first.
    expect(await harness.deliver(shift('shift-off', mira, started, Date.now()))).toBe(204);
    await harness.discord.waitFor(
      async () => (await harness.bot.store.of(recordModule).openShifts(harness.guild.id)).length === 0,
      10_000,
      'the shift ended in the record',
    );
    expect(await harness.deliver(modcall('call-3', '1003'))).toBe(204);
    const [, , , , third] = await harness.discord.waitForMessages(channel, 5, 10_000);
    expect(third?.content).toBe(`<@&${moderators}>`);
    expect(third?.allowed_mentions).toEqual({ parse: [], roles: [moderators] });
    expect(harness.discord.violations).toEqual([]);
    // Every message the bot sent or edited allowed only the mentions its content names.
    expect(mentionsAllowedUnnamed(harness.discord.requests)).toEqual([]);
  });
});
