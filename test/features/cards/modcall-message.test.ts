import { describe, expect, it } from 'vitest';

import { describeEntries } from '../../../src/features/audit/commands/audit.js';
import { BOT_USER_ID } from '../../../src/features/audit/store/audit-log.js';
import { formatElapsed, freshState, renderModcallMessage } from '../../../src/features/cards/modcall-message.js';
import { SAMPLE_DELIVERIES } from '../../fixtures/deliveries.js';

describe('a modcall card', () => {
  const event = SAMPLE_DELIVERIES.modcall;
  const at = event.data.at;

  it('waits, is claimed, is called again, and is resolved, with its buttons until then', () => {
    const fresh = renderModcallMessage(event, freshState(event.id, at), { mentionRoleId: '123456789012345678' });
    expect(fresh.content).toBe('<@&123456789012345678>');
    expect(JSON.stringify(fresh.embeds)).toContain('Waiting for a moderator');
    expect(fresh.components).toHaveLength(1);

    const claimed = { ...freshState(event.id, at), claimedBy: '42', claimedAt: at + 72_000 };
    expect(JSON.stringify(renderModcallMessage(event, claimed, {}).embeds)).toContain(
      'Claimed by <@42> · 1 min 12 s after the call',
    );

    const again = {
      ...claimed,
      calls: [...claimed.calls, { deliveryId: 'd2', at: at + 60_000 }, { deliveryId: 'd3', at: at + 90_000 }],
    };
    expect(JSON.stringify(renderModcallMessage(event, again, {}).embeds)).toContain('Called 3 times');

    const resolved = { ...again, resolvedBy: '43', resolvedAt: at + 3_600_000 };
    const done = renderModcallMessage(event, resolved, {});
    expect(JSON.stringify(done.embeds)).toContain('Resolved by <@43> (claimed by <@42>, 1 h 00 min after the call)');
    expect(done.components).toEqual([]);
  });

  it('tells how long after the call, to the second while short', () => {
    expect(formatElapsed(-5)).toBe('0 s');
    expect(formatElapsed(45_000)).toBe('45 s');
    expect(formatElapsed(72_000)).toBe('1 min 12 s');
    expect(formatElapsed(2 * 3_600_000 + 5 * 60_000)).toBe('2 h 05 min');
  });
});

describe('/audit lines', () => {
  it('fit one embed: as many as fit, then how many older ones are left out', () => {
    const entry = {
      guildId: 'g',
      userId: '1',
      action: 'x'.repeat(100),
      result: 'refused' as const,
      detail: 'y'.repeat(80),
      at: 0,
    };
    const text = describeEntries(Array.from({ length: 25 }, () => entry));
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(text).toMatch(/\n…and \d+ older$/);
    expect(describeEntries([{ ...entry, detail: null, result: 'done' }])).toMatch(/ → done$/);
  });

  it('name the bot for what it did on its own, and mention the user for everything else', () => {
    const entry = { guildId: 'g', userId: '1', action: 'Claim', result: 'done' as const, detail: null, at: 0 };
    expect(describeEntries([entry])).toContain('> <@1> Claim → done');
    const dropped = { ...entry, userId: BOT_USER_ID, action: 'Dropped 2 held deliveries older than 30 days' };
    expect(describeEntries([dropped])).toContain('> the bot Dropped 2 held deliveries older than 30 days → done');
    expect(describeEntries([dropped])).not.toContain('<@bot>');
  });
});
