import { describe, expect, it } from 'vitest';

import { assertValidCreateMessage } from '../../../fakes/discord/index.js';
import type { Card } from '../../../src/features/releases/app-documents.js';
import { renderKeyRefusal, renderOutcome, renderReleaseCard } from '../../../src/features/releases/release-card.js';

const T = Date.UTC(2026, 10, 20, 12, 0, 0);
const app = { appId: '101', appName: 'Pricewise' };
const card: Card = {
  label: '1.2',
  channelId: '10',
  messageId: '20',
  nonce: 'n',
  state: 'in_review',
  pending: true,
  stateSince: T,
  pendingSince: T,
  whatsNew: null,
  withdrawnBy: null,
  outcomeAnnounced: null,
};

describe('renderReleaseCard', () => {
  it('colours a card by what its state says, the service spelling it however it likes', () => {
    const colour = (change: Partial<Card>) => renderReleaseCard(app, { ...card, ...change }).embeds[0]?.color;
    expect(colour({})).toBe(0xffbf00);
    expect(colour({ pending: false, state: 'APPROVED' })).toBe(0x57f287);
    expect(colour({ pending: false, state: 'published_live' })).toBe(0x57f287);
    expect(colour({ pending: false, state: 'review_rejected' })).toBe(0xed4245);
    expect(colour({ pending: false, state: 'withdrawn' })).toBe(0x95a5a6);
    expect(colour({ pending: false, state: 'in_review', withdrawnBy: '5' })).toBe(0x95a5a6);
    expect(colour({ pending: false, state: 'on_hold' })).toBe(0x5865f2);
    expect(colour({ pending: false, state: null })).toBe(0x5865f2);
  });

  it('shows the state verbatim, time in review once it is over, the change note and who withdrew it', () => {
    const body = renderReleaseCard(app, {
      ...card,
      pending: false,
      state: 'needs `changes`',
      stateSince: T + 2 * 3600_000 + 5 * 60_000,
      whatsNew: 'Taxes per **region**',
      withdrawnBy: '42',
    });
    assertValidCreateMessage(body);
    expect(body.embeds[0]?.fields).toEqual([
      { name: 'Review state', value: '`` needs `changes` ``', inline: true },
      { name: 'In this state since', value: `<t:${(T + 7_500_000) / 1000}:R>`, inline: true },
      { name: 'Time in review', value: '2 h 05 min', inline: true },
      { name: "What's new", value: 'Taxes per \\*\\*region\\*\\*' },
      { name: 'Withdrawn', value: 'Withdrawn by <@42>' },
    ]);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(renderReleaseCard(app, { ...card, state: null }).embeds[0]?.fields?.[0]?.value).toBe('`` no state given ``');
  });
});

describe('renderOutcome and renderKeyRefusal', () => {
  it('pings only the watch role, or nobody', () => {
    const withRole = renderOutcome(app, { ...card, pending: false, state: 'approved' }, { guildId: '1', roleId: '7' });
    expect(withRole.content).toBe(
      '<@&7> **Pricewise 1.2** left review: `` approved `` after 0 min. https://discord.com/channels/1/10/20',
    );
    expect(withRole.allowed_mentions).toEqual({ parse: [], roles: ['7'] });
    const quiet = renderOutcome(
      app,
      { ...card, pending: false, state: null, pendingSince: null, messageId: null },
      { guildId: '1', roleId: null },
    );
    expect(quiet).toEqual({
      content: '**Pricewise 1.2** left review: `` no state given ``.',
      embeds: [],
      allowed_mentions: { parse: [] },
    });
  });

  it('tells admins what to do for a 401 and a 403', () => {
    expect(renderKeyRefusal(401).content).toContain('run /app key with the current upk_… key');
    expect(renderKeyRefusal(403).content).toContain('must have developer access restored');
  });
});
