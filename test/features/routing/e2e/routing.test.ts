import { afterEach, describe, expect, it } from 'vitest';

import { chatInputCommand, commandOption, type CommandOptionValue } from '../../../../fakes/discord/index.js';
import { postedDeliveryIds, startFeedHarness, type FeedHarness } from '../../../e2e/feed-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';

/**
 * Routing rules end to end: by case type and by game server, the most specific winning, and `off` (muted, counted
 * in /status), with the real bot against the fake Discord. The harness routes each event to its own channel and
 * everything else to #other (the default).
 */
describe('routing by game server and case type', () => {
  let h: FeedHarness | undefined;

  afterEach(async () => {
    if (h) expect(h.discord.violations).toEqual([]);
    await h?.stop();
    h = undefined;
  });

  const run = async (subcommand: string, options: CommandOptionValue[] = [], name = 'feed') => {
    const outcome = await h!.discord.dispatchInteraction(
      chatInputCommand({ name, subcommand, options, as: 'admin', guildId: h!.guild.id }),
    );
    return outcome.reply?.content ?? '';
  };
  const kase = (id: string, server: string, type: string, number: number) => {
    const sample = SAMPLE_DELIVERIES['case.created'];
    return { ...sample, id, server, data: { case: { ...sample.data.case, number, type } } };
  };
  const call = (id: string, server: string, robloxId: string) => {
    const sample = SAMPLE_DELIVERIES.modcall;
    return { ...sample, id, server, data: { ...sample.data, caller: { ...sample.data.caller, robloxId } } };
  };
  const settled = () =>
    h!.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 10_000, 'the feed settled');

  it('sends bans to their channel while warns keep the default, server 123 to its own, and mutes modcalls of 456', async () => {
    h = await startFeedHarness();
    const leads = h.guild.roles['Leads'] ?? '';
    const [bans, serverA, other] = [h.channel('cases'), h.channel('backup'), h.channel('other')];

    // case.created loses its own channel: warns go to the default channel; bans get a rule of their own.
    expect(await run('clear', [commandOption.string('event', 'case.created')])).toBe(
      `Rule removed: case.created now goes to <#${other}>.`,
    );
    expect(
      await run('set', [
        commandOption.string('event', 'case.created'),
        commandOption.channel('channel', bans),
        commandOption.string('case-type', 'ban'),
      ]),
    ).toBe(`case.created · case type ban now goes to <#${bans}>.`);
    expect(
      await run('set', [
        commandOption.string('event', 'all'),
        commandOption.channel('channel', serverA),
        commandOption.string('server', '123'),
        commandOption.role('mention', leads),
      ]),
    ).toBe(`server 123 · all events now goes to <#${serverA}>. They ping <@&${leads}>.`);
    expect(
      await run('off', [commandOption.string('event', 'modcall'), commandOption.string('server', '456')]),
    ).toContain('server 456 · modcall is now off: not posted, counted as muted in /status.');

    for (const delivery of [
      kase('ban-456', '456', 'ban', 1),
      kase('warn-456', '456', 'warn', 2),
      kase('ban-123', '123', 'ban', 3),
      call('call-456', '456', '1001'),
      call('call-123', '123', '1002'),
      { ...SAMPLE_DELIVERIES['session.started'], server: '456' },
    ]) {
      expect(await h.deliver(delivery)).toBe(204);
    }
    await settled();
    expect(postedDeliveryIds(h.discord, bans)).toEqual(['ban-456']);
    expect(postedDeliveryIds(h.discord, other)).toEqual(['warn-456']);
    // The server's rule is more specific than the case type's: server 123's ban goes to the server's channel.
    expect(postedDeliveryIds(h.discord, serverA)).toEqual(['ban-123', 'call-123']);
    expect(postedDeliveryIds(h.discord, h.channel('sessions'))).toEqual([SAMPLE_DELIVERIES['session.started'].id]);
    expect(h.discord.messages(h.channel('modcalls'))).toEqual([]);
    // The rule's ping, not the event's: server 123's modcall pings Leads, and Leads may claim it.
    const serverACall = h.discord.messages(serverA).find((message) => message.components.length > 0);
    expect(serverACall?.allowed_mentions).toMatchObject({ roles: [leads] });
    const lead = h.discord.addMember(h.guild.id, { username: 'lead', roleIds: [leads] });
    await clickButton(h.discord, h.guild.id, serverACall!, 'Claim', { userId: lead });
    const claimed = h.discord.messages(serverA).find((message) => message.id === serverACall?.id);
    expect(JSON.stringify(claimed?.embeds)).toContain(`Claimed by <@${lead}>`);

    // The muted modcall is counted, and the service's retry of it is a duplicate after a restart.
    await h.restart();
    expect(await h.deliver(call('call-456', '456', '1001'))).toBe(200);
    const status = await run('', [], 'status');
    expect(status).toContain('Muted by /feed off in the last day (stored, not posted): modcall 1.');
    expect(h.discord.messages(h.channel('modcalls'))).toEqual([]);

    const shown = await run('show');
    expect(shown).toContain(
      'The most specific rule wins: server + event + case type, then server + event, server + case type, server, ' +
        'event + case type, event, case type, and last the default channel.',
    );
    const lines = shown.split('\n').filter((line) => line.startsWith('• '));
    expect(lines.slice(0, 3)).toEqual([
      `• server 456 · modcall → off (muted: counted in /status, not posted) · pings <@&${h.moderatorsRoleId}>`,
      `• server 123 · all events → <#${serverA}> · pings <@&${leads}>`,
      `• case.created · case type ban → <#${bans}>`,
    ]);
    expect(lines).toContain(`• case.created → <#${other}> (default)`);
  });

  it('routes held events when rules come, and an off rule mutes the held events it covers', async () => {
    h = await startFeedHarness();
    // Nothing routed yet: every event is held as unrouted until the rules below arrive.
    await h.bot.store.guilds.update(h.guild.id, (settings) => ({ ...settings, routes: {}, defaultChannelId: null }));
    expect(await h.deliver(call('call-456', '456', '2001'))).toBe(204);
    expect(await h.deliver(call('call-123', '123', '2002'))).toBe(204);
    expect(await h.deliver(kase('ban-789', '789', 'ban', 9))).toBe(204);
    await h.discord.waitFor(
      async () => (await h!.bot.store.deliveries.statusOf(h!.guild.id)).unrouted['modcall'] === 2,
      10_000,
      'held as unrouted',
    );
    await run('off', [commandOption.string('event', 'modcall'), commandOption.string('server', '456')]);
    await run('set', [
      commandOption.string('event', 'all'),
      commandOption.channel('channel', h.channel('backup')),
      commandOption.string('case-type', 'ban'),
    ]);
    await run('default', [commandOption.channel('channel', h.channel('modcalls'))]);
    await settled();
    expect(postedDeliveryIds(h.discord, h.channel('modcalls'))).toEqual(['call-123']);
    expect(postedDeliveryIds(h.discord, h.channel('backup'))).toEqual(['ban-789']);
    expect(await h.bot.store.deliveries.statusOf(h.guild.id)).toMatchObject({ muted: { modcall: 1 }, unrouted: {} });

    // Clearing the off rule lets the next one through; what was muted stays muted (it is not posted late).
    expect(await run('clear', [commandOption.string('event', 'modcall'), commandOption.string('server', '456')])).toBe(
      `Rule removed: server 456 · modcall now goes to <#${h.channel('modcalls')}>.`,
    );
    expect(await h.deliver(call('call-456-b', '456', '2003'))).toBe(204);
    await settled();
    expect(postedDeliveryIds(h.discord, h.channel('modcalls'))).toEqual(['call-123', 'call-456-b']);
  });

  it('refuses a rule that names nothing, a case type on a modcall, and a server id that is not one', async () => {
    h = await startFeedHarness();
    expect(await run('off', [commandOption.string('event', 'all')])).toBe(
      'A rule for all events needs a server or a case type. For every event, use /feed default.',
    );
    expect(
      await run('set', [
        commandOption.string('event', 'modcall'),
        commandOption.channel('channel', h.channel('backup')),
        commandOption.string('case-type', 'ban'),
      ]),
    ).toBe('A case type applies to case events only: use event:case.created, case.voided or all.');
    expect(
      await run('off', [commandOption.string('event', 'modcall'), commandOption.string('server', 'my server')]),
    ).toBe('Give the server as the game server id the service sends (digits only).');
    expect(await run('clear', [commandOption.string('event', 'modcall'), commandOption.string('server', '1')])).toBe(
      'There is no rule for server 1 · modcall: /feed show lists the rules.',
    );
    expect((await h.bot.store.guilds.get(h.guild.id)).rules).toEqual([]);
  });
});
