import type { APIEmbed } from 'discord.js';

import { truncateText } from '../../base/truncate-text.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import type { OutgoingMessage } from '../../discord/posting/poster.js';
import { MAX_FOOTER_TEXT_LENGTH } from '../../embeds/limits.js';
import { packMessage } from '../../feed/pack-message.js';
import { renderEntry } from '../../feed/render-entry.js';
import type { ReplaySource } from './store/replay-store.js';

/** What every replayed embed's footer begins with: a reader tells a replayed event from a live one. */
export const REPLAYED_MARK = 'Replayed';

/** A run's next message: its events (the first ones of `sources` that fit) and its body, under its nonce. */
export interface ReplayMessage {
  events: ReplaySource[];
  body: OutgoingMessage;
  nonce: string;
}

/**
 * The next message of a replay into a channel: the events drawn as the feed draws them, each embed's footer marked
 * as replayed, packed as the feed packs a burst (up to 10 embeds, within Discord's limits). A replay pings nobody:
 * the events were news when they happened, and the content (a route's ping) is left out. The nonce is made from the
 * run and its events, so whoever sends it again (a restart, another process) sends the same message.
 */
export function composeReplayMessage(runId: string, sources: readonly ReplaySource[]): ReplayMessage {
  const rendered = sources.map((source) => {
    const payload = renderEntry(source, { channelId: source.channelId ?? '' });
    return { item: source, payload: { embeds: payload.embeds.map(markReplayed), allowed_mentions: { parse: [] } } };
  });
  const packed = packMessage(rendered);
  const nonce = makeCardNonce(['replay', runId, ...packed.items.map((item) => `${item.hookId}:${item.deliveryId}`)]);
  return {
    events: packed.items,
    body: { embeds: packed.payload.embeds, allowed_mentions: { parse: [] } },
    nonce,
  };
}

function markReplayed(embed: APIEmbed): APIEmbed {
  const text = embed.footer?.text ? `${REPLAYED_MARK} · ${embed.footer.text}` : REPLAYED_MARK;
  return { ...embed, footer: { ...embed.footer, text: truncateText(text, MAX_FOOTER_TEXT_LENGTH) } };
}
