import { time, TimestampStyles } from 'discord.js';

import type { RenderedEntry } from '../../feed/card-plan.js';
import { describeCaseCounts, type EarlierCases, type RecordQueries } from '../record/index.js';
import { readFacts } from './entry-facts.js';

/**
 * A new case's card says what the community record holds of the player before it: "Earlier: 2 warns, 1 kick ·
 * last 4 days ago" (voided cases left out; nothing for a player's first case). The record lags the feed by about a
 * second, so a case the service sent a moment before may not be counted yet. What the card says is written down
 * with the message, so a resend sends it as it was.
 */
export async function withEarlierCases(
  community: Pick<RecordQueries, 'earlierCases'>,
  guildId: string,
  items: readonly RenderedEntry[],
): Promise<RenderedEntry[]> {
  return Promise.all(
    items.map(async (entry) => {
      const event = entry.settled ? undefined : readFacts(entry).event;
      if (event?.event !== 'case.created') return entry;
      const { target, createdAt } = event.data.case;
      const earlier = await community.earlierCases(guildId, target.robloxId, createdAt);
      const [card, ...rest] = entry.payload.embeds;
      if (!card || earlier.lastAt === undefined) return entry;
      const fields = [...(card.fields ?? []), { name: 'Earlier', value: describeEarlier(earlier) }];
      return { ...entry, payload: { ...entry.payload, embeds: [{ ...card, fields }, ...rest] } };
    }),
  );
}

/** "2 warns, 1 kick · last <t:…:R>". */
export function describeEarlier(earlier: EarlierCases): string {
  const counts = describeCaseCounts(earlier.byType, ', ');
  return earlier.lastAt === undefined
    ? counts
    : `${counts} · last ${time(Math.floor(earlier.lastAt / 1000), TimestampStyles.RelativeTime)}`;
}
