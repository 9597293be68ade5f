import { afterEach, describe, expect, it } from 'vitest';

import {
  chatInputCommand,
  type FakeMessage,
  type InteractionOutcome,
  type Invoker,
} from '../../fakes/discord/index.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { clickButton } from '../helpers/click-button.js';
import { postedDeliveryIds, startFeedHarness, type FeedHarness } from './feed-harness.js';

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
      async () => (await h!.bot.store.deliveries.statusOf(h!.guild.id)).parkedRefused >= 1,
      10_000,
      `${id} held`,
    );
  };

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
    expect((await h.bot.store.deliveries.statusOf(h.guild.id)).parkedRefused).toBe(1);

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
    expect((await h.bot.store.deliveries.statusOf(h.guild.id)).parkedRefused).toBe(1);

    const confirm = await click(await click(kept.reply, 'Discard 1'), 'Confirm discard');
    expect(confirm.reply?.content).toContain('Discarded case.created (delivery refused-2).');
    expect(confirm.reply?.content).toContain('Nothing is held');
    expect((await h.bot.store.deliveries.statusOf(h.guild.id)).parkedRefused).toBe(0);
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
      async () => (await h!.bot.store.audit.latest(h!.guild.id, 1))[0]?.action === 'Confirm discard (/feed button)',
      5_000,
      'the discard audited',
    );
    const audit = await h.bot.store.audit.latest(h.guild.id, 25);
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
