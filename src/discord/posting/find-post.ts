import { Routes, type Client } from 'discord.js';

import { requestDiscord } from './classify-discord-error.js';

/** Discord's epoch (2015-01-01): snowflakes count milliseconds from it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;
/** Discord's most messages per page of a channel's history. */
const PAGE_SIZE = 100;
/**
 * Pages read at most per search (1 000 messages): the post looked for was sent right after it was written down,
 * so it is among the first messages since then; a channel busier than that in those minutes is not read to its
 * end (the search is one request a page, under the channel's rate limit).
 */
export const MAX_PAGES = 10;
/** A minute before the time given: the clocks of this host and Discord's may differ a little. */
const CLOCK_SLACK_MS = 60_000;

/** What a post shows that the finder compares: its embeds' titles and footers. */
export interface ShownEmbed {
  title?: string;
  footer?: { text?: string };
  timestamp?: string;
}

/** A message of the channel as the finder reads it back (fetched messages carry no nonce). */
export interface FoundMessage {
  id: string;
  content: string;
  embeds: readonly ShownEmbed[];
  /** The message a reply answers. */
  message_reference?: { message_id?: string };
}

/**
 * What identifies the post looked for: a body, whose embeds' titles and footers the post shows (the feed's
 * footers name their deliveries), or a test of a message, for posts whose embeds change between tries or that
 * have none (a reply: its reference and its words).
 */
export type WantedPost = { embeds: readonly ShownEmbed[] } | { matches: (message: FoundMessage) => boolean };

/** Finds the bot's post of `wanted` in a channel made since `since` (ms); resolves with its id, or nothing. */
export type PostFinder = (channelId: string, wanted: WantedPost, since: number) => Promise<string | undefined>;

/** A message of a channel as Discord answers it, with what tells who wrote it. */
interface HistoryMessage {
  id: string;
  content?: string;
  embeds?: ShownEmbed[];
  message_reference?: { message_id?: string };
  author?: { id?: string };
  webhook_id?: string;
}

/**
 * Finds a message the bot itself posted among the channel's messages since `since`: a fetched message carries
 * no nonce, so it is recognised by what it shows, and only among the bot's own messages (a member's, another
 * bot's or a webhook's look-alike is never taken for it: its id would be edited, or stand for a post never made).
 * The history is read forward from `since`, a page of 100 at a time, up to {@link MAX_PAGES} pages. Needs Read
 * Message History, which the feed's channels are checked for. This is how a resend past Discord's nonce window
 * still posts once; a failure rejects with a classified `SendError`.
 */
export function createPostFinder(client: Client, token?: string): PostFinder {
  let ownId: Promise<string> | undefined;
  const botUserId = (): Promise<string> => {
    if (client.user) return Promise.resolve(client.user.id);
    // A process without the gateway has no client.user: Discord says who the token is, once.
    ownId ??= requestDiscord(client, token, () => client.rest.get(Routes.user('@me'))).then(
      (user) => (user as { id: string }).id,
      (error: unknown) => {
        ownId = undefined;
        throw error;
      },
    );
    return ownId;
  };
  return async (channelId, wanted, since) => {
    const matches = 'matches' in wanted ? wanted.matches : showsSameAs(wanted);
    const authorId = await botUserId();
    let after = snowflakeAt(since - CLOCK_SLACK_MS);
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const query = new URLSearchParams({ after: after.toString(), limit: String(PAGE_SIZE) });
      const messages = (await requestDiscord(
        client,
        token,
        () => client.rest.get(Routes.channelMessages(channelId), { query }),
        channelId,
      )) as HistoryMessage[];
      // Newest first: the oldest match is the first post, should a look-alike of the bot's own follow it.
      const found = messages.findLast(
        (message) =>
          message.author?.id === authorId &&
          message.webhook_id === undefined &&
          matches({ ...message, content: message.content ?? '', embeds: message.embeds ?? [] }),
      );
      if (found) return found.id;
      if (messages.length < PAGE_SIZE) return undefined;
      after = messages.reduce((newest, message) => maxOf(newest, BigInt(message.id)), after);
    }
    return undefined;
  };
}

/** A test of a message: it shows the same embeds (titles and footers, in order) as `body`. */
export function showsSameAs(body: { embeds: readonly ShownEmbed[] }): (message: FoundMessage) => boolean {
  const wanted = showing(body.embeds);
  return (message) => showing(message.embeds) === wanted;
}

function showing(embeds: readonly ShownEmbed[]): string {
  return JSON.stringify(embeds.map((embed) => [embed.title ?? '', embed.footer?.text ?? '']));
}

/** The smallest snowflake of a time: `after` it are the messages made from that time on. */
function snowflakeAt(ms: number): bigint {
  const at = (BigInt(Math.max(0, Math.floor(ms))) - DISCORD_EPOCH_MS) << 22n;
  return at > 0n ? at : 0n;
}

function maxOf(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
