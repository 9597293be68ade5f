import type { APIActionRowComponent, APIButtonComponent } from 'discord.js';

import type { MessagePayload } from '../discord/message-payload.js';
import type { QueuedEntry } from '../store/deliveries.js';

/** One entry of the lane with the message it renders to. */
export interface RenderedEntry {
  item: QueuedEntry;
  payload: MessagePayload;
  /** The payload already shows its subject's final state (a case drawn voided): nothing to edit once posted. */
  settled?: boolean;
  /**
   * The route's role when this message pings others in its place (a modcall paging the staff on shift first):
   * whose members may claim the card, and whom a later ping names. Written down with the message (the store), never
   * sent in its allowed_mentions, which name exactly who this message pings.
   */
  deferredRoleId?: string;
}

/**
 * What the lane sends next:
 * - `post`: a new message of these entries (a modcall goes alone, with its buttons); `cut` when an entry
 *   after them must go on its own, so the message should not wait for more;
 * - `update`: the first entry changes a card already posted (a repeat call, a voided case, an ended session or
 *   shift): `run` edits it (and replies where that notifies); `gone` when the card can no longer be edited,
 *   which the lane answers by posting the entry as a message of its own.
 */
export type LanePlan =
  | { kind: 'post'; items: RenderedEntry[]; components: Array<APIActionRowComponent<APIButtonComponent>>; cut: boolean }
  | { kind: 'update'; entry: QueuedEntry; run: () => Promise<'done' | 'gone'> };

/**
 * What the feed asks of the living cards (the cards feature implements it): what to send next of a channel's
 * entries, and what a message Discord confirmed carries. Without it every entry is a plain post.
 */
export interface CardPlanner {
  /** What the lane sends next of these entries (rendered in store order). */
  plan(guildId: string, rendered: readonly RenderedEntry[]): Promise<LanePlan>;
  /** Records what a confirmed message carries, so later events find their card. */
  posted(guildId: string, channelId: string, messageId: string, items: readonly RenderedEntry[]): Promise<void>;
}
