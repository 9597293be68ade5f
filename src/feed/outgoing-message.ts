import type { Clock } from '../base/clock.js';
import { nonceForEntries } from '../discord/posting/nonce.js';
import type { FeedMessageBody } from '../discord/posting/send-failure.js';
import type { QueuedEntry } from '../store/deliveries.js';
import type { GuildSettingsStore } from '../store/guild-settings.js';
import { resolveRoute } from '../store/routing-rules.js';
import type { CardPlanner, LanePlan, RenderedEntry } from './card-plan.js';
import { packMessage } from './pack-message.js';
import { renderEntry } from './render-entry.js';
import { parseWrittenPost, serializeWrittenPost } from './written-message.js';

/**
 * What goes next, written down under its nonce: a message of these entries (`rendered` is what each one put
 * in it), or the update of a card already posted by one entry.
 */
export type Outgoing =
  | { kind: 'post'; entries: QueuedEntry[]; rendered: RenderedEntry[]; body: FeedMessageBody; writtenAt: number }
  | { kind: 'update'; entries: QueuedEntry[]; nonce: string; run: () => Promise<'done' | 'gone'> };

export type OutgoingPost = Extract<Outgoing, { kind: 'post' }>;

/** What {@link OutgoingMessages} reads: the guild's routes, the cards (optional) and the time. */
export interface OutgoingDeps {
  guilds: GuildSettingsStore;
  cards?: CardPlanner;
  clock: Clock;
}

/** The nonce a message is written down and sent under. */
export function nonceOf(outgoing: Outgoing): string {
  return outgoing.kind === 'post' ? outgoing.body.nonce : outgoing.nonce;
}

/** What the store keeps of a post written down: a resend sends exactly this (see written-message.ts). */
export function writtenFormOf(outgoing: OutgoingPost): string {
  return serializeWrittenPost({
    body: outgoing.body,
    parts: outgoing.rendered.map(({ payload, settled, deferredRoleId }) => ({
      payload,
      ...(settled ? { settled } : {}),
      ...(deferredRoleId === undefined ? {} : { deferredRoleId }),
    })),
    writtenAt: outgoing.writtenAt,
  });
}

/** Turns one channel's entries into its next message: rendered by today's routes, planned by the cards. */
export class OutgoingMessages {
  constructor(
    private readonly channelId: string,
    private readonly guildId: string,
    private readonly deps: OutgoingDeps,
  ) {}

  /** Renders the entries and lets the cards decide what they become; without cards, one plain post. */
  async plan(entries: QueuedEntry[]): Promise<LanePlan> {
    const rendered = await this.renderEach(entries);
    if (this.deps.cards) return this.deps.cards.plan(this.guildId, rendered);
    return { kind: 'post', items: rendered, components: [], cut: false };
  }

  /** The message of a plan, under `nonce` (a resend's) or a new one derived from the entries it carries. */
  fromPlan(plan: LanePlan, nonce: string | undefined): Outgoing {
    if (plan.kind === 'update') {
      return { kind: 'update', entries: [plan.entry], nonce: nonce ?? nonceForEntries([plan.entry]), run: plan.run };
    }
    const packed = packMessage(plan.items);
    const rendered = plan.items.filter((entry) => packed.items.includes(entry.item));
    const body: FeedMessageBody = {
      ...packed.payload,
      nonce: nonce ?? nonceForEntries(packed.items),
      enforce_nonce: true,
      ...(plan.components.length > 0 ? { components: plan.components } : {}),
    };
    return { kind: 'post', entries: packed.items, rendered, body, writtenAt: this.deps.clock() };
  }

  /**
   * A message written down before, exactly as it was written down (its entries, its body, the cards it carries),
   * under its nonce: what the cards would plan now may differ (another lane posted a card meanwhile), and every
   * entry under the nonce is confirmed with it. `written` is what the store kept under the nonce.
   */
  async fromWritten(entries: QueuedEntry[], nonce: string, written: string | undefined): Promise<Outgoing> {
    const post = parseWrittenPost(written, nonce, entries.length);
    if (post) {
      const rendered = entries.flatMap((item, index) => {
        const part = post.parts[index];
        return part ? [{ ...part, item }] : [];
      });
      return { kind: 'post', entries, rendered, body: post.body, writtenAt: post.writtenAt };
    }
    // An update (one entry, planned again), or a post written down by a version that kept no message.
    const outgoing = this.fromPlan(await this.plan(entries), nonce);
    if (outgoing.entries.length === entries.length) return outgoing;
    // Planned differently now: every entry written down goes, drawn plainly, so none is confirmed unsent.
    return this.fromPlan({ kind: 'post', items: await this.renderEach(entries), components: [], cut: false }, nonce);
  }

  private async renderEach(entries: QueuedEntry[]): Promise<RenderedEntry[]> {
    const settings = await this.deps.guilds.get(this.guildId);
    return entries.map((entry) => {
      const route = resolveRoute(settings, entry);
      // A resend goes where it went the first time (its nonce is that channel's); the ping follows today's route.
      const here = route && route !== 'muted' && route.channelId === this.channelId;
      const payload = renderEntry(entry, here ? route : { channelId: this.channelId });
      return { item: entry, payload };
    });
  }
}
