import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { setEscalation, startFeedHarness, type FeedHarness } from './feed-harness.js';

/**
 * Replies (a voided case, an escalated modcall) in a channel where the bot lacks Read Message History, which
 * Discord refuses for a message with a reference: the reply is posted on its own and the channel goes on.
 */
describe('replies without Read Message History', () => {
  let h: FeedHarness | undefined;

  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const noHistory = PermissionFlagsBits.ReadMessageHistory;
  const settled = () =>
    h!.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 10_000, 'nothing open');

  it('a voided case: its reply is posted without the reference, and the channel keeps posting', async () => {
    h = await startFeedHarness({ denyBot: { cases: noHistory } });
    const created = SAMPLE_DELIVERIES['case.created'];
    expect(await h.deliver({ ...created, id: 'history-created' })).toBe(204);
    await h.discord.waitForMessages(h.channel('cases'), 1, 10_000);
    await settled();

    expect(await h.deliver({ ...SAMPLE_DELIVERIES['case.voided'], id: 'history-voided' })).toBe(204);
    const [, reply] = await h.discord.waitForMessages(h.channel('cases'), 2, 10_000);
    expect(reply?.content).toContain('Case #1042');
    expect(reply?.content).toContain('was voided by');
    expect(reply?.body['message_reference']).toBeUndefined();
    expect(JSON.stringify(h.discord.messages(h.channel('cases'))[0]?.embeds)).toContain('Voided');
    expect(h.logs.text()).toContain('reply refused (the bot lacks Read Message History there)');

    const next = { ...created.data.case, number: 1043 };
    expect(await h.deliver({ ...created, id: 'history-next', data: { case: next } })).toBe(204);
    const [, , later] = await h.discord.waitForMessages(h.channel('cases'), 3, 10_000);
    expect(JSON.stringify(later?.embeds)).toContain('1043');
    // Nothing held: the refused reply did not mark the channel broken.
    await settled();
  });

  it('an unclaimed modcall: the escalation is posted once, without the reference', async () => {
    h = await startFeedHarness({
      escalationTimings: { minuteMs: 300, checkEveryMs: 50 },
      denyBot: { modcalls: noHistory },
    });
    const leads = h.guild.roles['Leads'] ?? '';
    expect(await setEscalation(h, 1, leads)).toContain('gets one reply that pings');
    expect(await h.deliver(SAMPLE_DELIVERIES.modcall)).toBe(204);
    const [, escalation] = await h.discord.waitForMessages(h.channel('modcalls'), 2, 10_000);
    expect(escalation?.content).toContain(`<@&${leads}>`);
    expect(escalation?.content).toContain('unclaimed for 1 min');
    expect(escalation?.body['message_reference']).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(h.discord.messages(h.channel('modcalls'))).toHaveLength(2);
  });
});
