import { afterEach, describe, expect, it } from 'vitest';

import {
  chatInputCommand,
  type FakeMessage,
  type InteractionOutcome,
  type Invoker,
} from '../../../../fakes/discord/index.js';
import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { postedDeliveryIds, startFeedHarness, type FeedHarness } from '../../../e2e/feed-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';

/** /feed held end to end: entries Discord refused, listed with why, sent again or discarded (with a confirmation). */
describe('/feed held', () => {
  let h: FeedHarness | undefined;

  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const kase = (id: string) => ({ ...SAMPLE_DELIVERIES['case.created'], id });
  const held = async (as: Invoker = 'admin') =>
    h!.discord.dispatchInteraction(chatInputCommand({ name: 'feed', subcommand: 'held', as, guildId: h!.guild.id }));
  const click = async (on: InteractionOutcome | FakeMessage | undefined, label: string, as: Invoker = 'admin') => {
    const message = on && 'callback' in on ? on.reply : on;
    if (!message) throw new Error(`no message to click ${label} on`);
    return clickButton(h!.discord, h!.guild.id, message, label, as);
  };
  /** Discord refuses the next message to #cases (a 400 for that message alone): the entry is held. */
  const refuseNext = async (id: string) => {
    h!.discord.failRequests({ status: 400, count: 1, match: new RegExp(`/channels/${h!.channel('cases')}/messages$`) });
    expect(await h!.deliver(kase(id))).toBe(204);
    await h!.discord.waitFor(
      async () => (await h!.bot.store.deliveries.statusOf(h!.guild.id)).heldRefused >= 1,
      10_000,
      `${id} held`,
    );
  };

  it('names what each held entry is: the case and its target, the caller, the session or shift, the delivery id', async () => {
    h = await startFeedHarness();
    // Nothing routes these events, so they are held as they come.
    await h.bot.store.guilds.update(h.guild.id, (settings) => ({ ...settings, routes: {}, defaultChannelId: null }));
    const sample = SAMPLE_DELIVERIES['case.created'];
    const other = {
      ...sample,
      id: 'case-2',
      data: { case: { ...sample.data.case, number: 1043, target: { robloxId: '77', name: 'GhostRider' } } },
    };
    const shift = SAMPLE_DELIVERIES['shift.started'];
    for (const delivery of [kase('case-1'), other, { ...SAMPLE_DELIVERIES.modcall, id: 'call-1' }, shift]) {
      expect(await h.deliver(delivery)).toBe(204);
    }
    await h.discord.waitFor(
      async () => (await h!.bot.store.deliveries.listHeld(h!.guild.id, { offset: 0, limit: 10 })).length === 4,
      10_000,
      'four held',
    );
    const lines = (await held()).reply?.content.split('\n') ?? [];
    expect(lines).toContain('> Case #1042 (warn) on SpeedyRacer\\_09 by Mira · delivery `` case-1 ``');
    expect(lines).toContain('> Case #1043 (warn) on GhostRider by Mira · delivery `` case-2 ``');
    expect(lines).toContain('> Modcall from helpme\\_pls · delivery `` call-1 ``');
    expect(lines).toContain(`> Shift #7781 of Mira · delivery \`\` ${shift.id} \`\``);

    const asked = await click(await held(), 'Discard 2');
    expect(asked.reply?.content).toMatch(
      /^Discard case\.created received .*, Case #1043 \(warn\) on GhostRider by Mira/,
    );
  });

  it('lists an entry Discord refused with why; Retry posts it; Discard asks first, then drops it for good', async () => {
    h = await startFeedHarness();
    await refuseNext('refused-1');
    const list = await held();
    expect(list.reply?.ephemeral).toBe(true);
    expect(list.reply?.content).toContain('case.created · received');
    expect(list.reply?.content).toMatch(/Discord refused the message: Discord 400/);

    // Someone without Manage Server cannot act on it.
    const refused = await click(list, 'Retry 1', 'member');
    expect(refused.reply?.content).toBe('You need the Manage Server permission to use this command.');
    expect((await h.bot.store.deliveries.statusOf(h.guild.id)).heldRefused).toBe(1);

    await click(list, 'Retry 1');
    await h.discord.waitFor(
      () => postedDeliveryIds(h!.discord, h!.channel('cases')).includes('refused-1'),
      10_000,
      'posted',
    );

    await refuseNext('refused-2');
    const again = await held();
    const asked = await click(again, 'Discard 1');
    expect(asked.reply?.content).toMatch(/^Discard case\.created received .* It will never be posted/);
    const kept = await click(asked.reply, 'Cancel');
    expect(kept.reply?.content).toContain('case.created · received');
    expect((await h.bot.store.deliveries.statusOf(h.guild.id)).heldRefused).toBe(1);

    const confirm = await click(await click(kept.reply, 'Discard 1'), 'Confirm discard');
    expect(confirm.reply?.content).toContain('Discarded case.created (delivery refused-2).');
    expect(confirm.reply?.content).toContain('Nothing is held');
    expect((await h.bot.store.deliveries.statusOf(h.guild.id)).heldRefused).toBe(0);
    expect(await h.deliver(kase('refused-2'))).toBe(200);
    const logged = h.logs
      .text()
      .split('\n')
      .find((line) => line.includes('held delivery discarded'));
    expect(logged).toContain(`"userId":"${h.discord.users.admin.id}"`);
    expect(logged).toContain('"deliveryId":"refused-2"');
    expect(postedDeliveryIds(h.discord, h.channel('cases'))).not.toContain('refused-2');
    // Audited: who confirmed the discard; the refused click is there too; the list itself is not.
    await h.discord.waitFor(
      async () =>
        (await h!.bot.store.of(auditModule).latest(h!.guild.id, 1))[0]?.action === 'Confirm discard (/feed button)',
      5_000,
      'the discard audited',
    );
    const audit = await h.bot.store.of(auditModule).latest(h.guild.id, 25);
    expect(audit[0]).toMatchObject({
      userId: h.discord.users.admin.id,
      action: 'Confirm discard (/feed button)',
      result: 'done',
    });
    expect(audit.map((entry) => entry.action)).toContain('Retry 1 (/feed button)');
    expect(audit.find((entry) => entry.result === 'refused')).toMatchObject({ userId: h.discord.users.member.id });
    expect(audit.some((entry) => entry.action.startsWith('/feed held'))).toBe(false);
  });
});
