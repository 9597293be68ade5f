import type { APIEmbed } from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { MessageEdit } from '../../../src/discord/posting/poster.js';
import {
  REDACT_SLICE,
  redactPostedCards,
  type RedactProgress,
} from '../../../src/features/record/redact-posted-cards.js';
import type { PostedCard } from '../../../src/store/person-data.js';

const PLAYER = { guildId: 'g1', kind: 'player' as const, id: '2391045817', name: 'SpeedyRacer_09' };

function caseEmbed(name: string, id: string, reason: string): APIEmbed {
  return {
    title: 'Case #1 · Warn',
    fields: [
      { name: 'Target', value: `[${name.replace('_', '\\_')}](https://www.roblox.com/users/${id}/profile)` },
      { name: 'Moderator', value: '<@284756102938475610> (Mira)' },
      { name: 'Reason', value: reason },
    ],
  };
}

/**
 * Redacting the bot's posted cards goes a slice at a time with progress; a card Discord no longer has or refuses
 * is counted, and the others are still edited.
 */
describe('redacting posted cards', () => {
  it('edits every card it can, slice by slice, counting those gone or refused', async () => {
    const cards: PostedCard[] = Array.from({ length: REDACT_SLICE + 2 }, (_, i) => ({
      channelId: 'c1',
      messageId: `m${i}`,
      embeds: [caseEmbed(PLAYER.name, PLAYER.id, 'spawn killing'), caseEmbed('GhostRider', '77', 'exploiting')],
    }));
    const edits = new Map<string, MessageEdit>();
    const poster = {
      edit(_channelId: string, messageId: string, body: MessageEdit): Promise<'edited' | 'gone'> {
        if (messageId === 'm1') return Promise.reject(new Error('Missing Access'));
        if (messageId === 'm2') return Promise.resolve('gone');
        edits.set(messageId, body);
        return Promise.resolve('edited');
      },
    };
    const progress: RedactProgress[] = [];
    const failures: string[] = [];

    const done = await redactPostedCards(
      poster,
      cards,
      PLAYER,
      (so) => {
        progress.push(so);
        return Promise.resolve();
      },
      (card) => failures.push(card.messageId),
    );

    expect(done).toEqual({ edited: REDACT_SLICE, failed: 2, total: REDACT_SLICE + 2 });
    expect(progress).toEqual([
      { edited: REDACT_SLICE - 2, failed: 2, total: REDACT_SLICE + 2 },
      { edited: REDACT_SLICE, failed: 2, total: REDACT_SLICE + 2 },
    ]);
    expect(failures).toEqual(['m1']);
    const edited = edits.get('m0');
    const [theirs, other] = edited?.embeds ?? [];
    expect(JSON.stringify(theirs)).not.toMatch(/2391045817|SpeedyRacer|spawn killing/);
    expect(theirs?.fields?.map((field) => field.value)).toEqual([
      'a former player',
      '<@284756102938475610> (Mira)',
      '(redacted)',
    ]);
    expect(other).toEqual(caseEmbed('GhostRider', '77', 'exploiting'));
    expect(edited?.allowed_mentions).toEqual({ parse: [] });
  });
});
