import type { MessagePayload } from '../message-payload.js';

/** The body of one feed message: the merged payload plus the nonce that makes a retried send idempotent. */
export interface FeedMessageBody extends MessagePayload {
  nonce: string;
  enforce_nonce: true;
  /** A modcall's Claim and Resolve buttons. */
  components?: unknown[];
}

/**
 * Sends one message to a channel; resolves once Discord confirmed it, with the message's id (which cards need
 * to be edited later; a sender that cannot tell resolves with nothing), rejects with a {@link SendError}.
 */
export type MessageSender = (channelId: string, body: FeedMessageBody) => Promise<string | void>;

/**
 * What a failed send means for the feed:
 * - `retry`: Discord or the network failed (5xx, timeout, reset): try again later, with backoff;
 * - `wait`: rate-limited beyond what discord.js absorbed: try again after Discord's delay;
 * - `broken`: the channel is gone or the bot may not post there (403/404): keep the entries, stop the channel
 *   until an admin changes the guild's routes;
 * - `rejected`: Discord refused this message itself (another 4xx): its entries are held (kept, listed);
 * - `unauthorized`: Discord refused the bot's token (401): nothing can be posted anywhere until it takes it
 *   again; retry with backoff, and say so in /healthz and /status.
 */
export type SendFailure =
  | { kind: 'retry'; reason: string }
  | { kind: 'wait'; retryAfterMs: number; reason: string }
  | { kind: 'broken'; status: number; code?: number; reason: string }
  | { kind: 'rejected'; status: number; code?: number; reason: string }
  | { kind: 'unauthorized'; reason: string };

/** The error a {@link MessageSender} rejects with. */
export class SendError extends Error {
  override readonly name = 'SendError';
  constructor(
    readonly failure: SendFailure,
    /**
     * The channel Discord answered about, where the request named one: a `broken` failure speaks of that channel
     * only (a card's edit or reply may go to a channel other than the lane's that asked for it).
     */
    readonly channelId?: string,
  ) {
    super(failure.reason);
  }
}

/** Any other error a sender throws is taken as a passing failure, worth a retry. */
export function toSendFailure(error: unknown): SendFailure {
  if (error instanceof SendError) return error.failure;
  return { kind: 'retry', reason: error instanceof Error ? error.message : String(error) };
}

/**
 * Whether Discord refused for good what was asked (the channel, thread or message is gone, or the bot may not):
 * trying again would not help until someone changes something.
 */
export function isRefusedByDiscord(error: unknown): error is SendError {
  return error instanceof SendError && (error.failure.kind === 'broken' || error.failure.kind === 'rejected');
}
