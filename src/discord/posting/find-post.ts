import { Routes, type Client } from 'discord.js';

import { requestDiscord } from './classify-discord-error.js';

/** Discord's epoch (2015-01-01): snowflakes count milliseconds from it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/** What a post shows that the finder compares: its embeds' titles and footers. */
interface ShownEmbed {
  title?: string;
  footer?: { text?: string };
}

/** Finds a post of `body` in a channel made since `since` (ms); resolves with its id, or nothing. */
export type PostFinder = (
  channelId: string,
  body: { embeds: readonly ShownEmbed[] },
  since: number,
) => Promise<string | undefined>;

/**
 * Finds a feed message among the channel's messages since `since` (the oldest 100), by what it shows: a fetched
 * message carries no nonce, but every feed embed's footer names its delivery, so the same embeds (titles and
 * footers) are the same post. Needs Read Message History, which the feed's channels are checked for. This is how
 * a resend past Discord's nonce window still posts once; a failure rejects with a classified `SendError`.
 */
export function createPostFinder(client: Client, token?: string): PostFinder {
  return async (channelId, body, since) => {
    // A minute before: the clocks of this host and Discord's may differ a little.
    const after = (BigInt(Math.max(0, since - 60_000)) - DISCORD_EPOCH_MS) << 22n;
    const query = new URLSearchParams({ after: (after > 0n ? after : 0n).toString(), limit: '100' });
    const messages = (await requestDiscord(
      client,
      token,
      () => client.rest.get(Routes.channelMessages(channelId), { query }),
      channelId,
    )) as Array<{ id: string; embeds?: ShownEmbed[] }>;
    const wanted = showing(body.embeds);
    return messages.find((message) => showing(message.embeds ?? []) === wanted)?.id;
  };
}

function showing(embeds: readonly ShownEmbed[]): string {
  return JSON.stringify(embeds.map((embed) => [embed.title ?? '', embed.footer?.text ?? '']));
}
