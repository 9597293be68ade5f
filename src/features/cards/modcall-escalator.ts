import { backoffDelay, type BackoffPolicy } from '../../base/backoff.js';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { Repeating } from '../../base/repeating.js';
import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import { describeDiscordError } from '../../discord/posting/classify-discord-error.js';
import type { WantedPost } from '../../discord/posting/find-post.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import { postWrittenDown, type EarlierPostDeps } from '../../discord/posting/post-once.js';
import type { OutgoingMessage, Poster } from '../../discord/posting/poster.js';
import { SendError } from '../../discord/posting/send-failure.js';
import { formatName } from '../../embeds/format.js';
import type { CardDocuments } from './card-documents.js';
import { awaitsRolePing, forgetAtOf, isOpen, type ModcallCard } from './modcall-card.js';

/** How often due modcall cards are looked at. */
const DEFAULT_CHECK_EVERY_MS = 15_000;
/** Due cards read at a time, and slices per check: a backlog (after downtime) is worked off a bounded part a check. */
const DUE_SLICE = 100;
const SLICES_PER_CHECK = 10;
/** A card whose look failed is looked at again after this, doubling with each failure in a row. */
const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 15_000, capMs: 10 * 60_000 };

export interface ModcallEscalatorDeps extends EarlierPostDeps {
  documents: CardDocuments;
  poster: Poster;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  checkEveryMs?: number;
  /** The unit of escalate-after; tests shorten it. */
  minuteMs?: number;
  /** How long a card whose look failed waits for the next (default 15 s doubling to 10 min). */
  backoff?: BackoffPolicy;
  /** Told each time a card's look failed and it backed off (the metrics). */
  onBackoff?: () => void;
}

/**
 * Escalates modcalls nobody claimed: after the server's escalate-after minutes, one reply to the card that pings
 * the escalation role only (its nonce is the card's, so a retry after a crash lands on the same reply; when it was
 * first tried is written down in the card, so a retry later than Discord keeps nonces looks for the reply first).
 * Runs in the process that holds the gateway, like the cards' buttons. Each check asks the store only for the cards
 * that are due (card-documents.ts, dueOf): new ones, given their escalation time from the server's escalate-after of
 * that moment; those whose escalation time came; and those to forget. A card whose look fails (its server's
 * settings unreadable, Discord failing) backs off, its retry stored with it (15 s, doubling to 10 min): it is not
 * due meanwhile, so however many cards of failing servers there are, the others' escalations come on time.
 */
export class ModcallEscalator {
  private readonly repeating: Repeating;

  constructor(private readonly deps: ModcallEscalatorDeps) {
    this.repeating = new Repeating(
      deps.timers,
      deps.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS,
      () => this.check(),
      (error) =>
        deps.logger.warn({ err: toLoggableError(error) }, 'modcall escalation check failed; retried at the next check'),
    );
  }

  start(): void {
    this.repeating.start();
  }

  stop(): Promise<void> {
    return this.repeating.stop();
  }

  /** Looks at the cards due now (tests; the timer does it every 15 s). */
  async check(): Promise<void> {
    for (let slice = 0; slice < SLICES_PER_CHECK; slice += 1) {
      const now = this.deps.clock();
      const { cards: due, unreadable } = await this.deps.documents.dueModcalls(now, DUE_SLICE);
      for (const key of unreadable) {
        this.deps.logger.warn({ key }, 'a stored modcall card could not be read; it was dropped, with its escalation');
      }
      // The cards of a slice are independent: handled together, their writes share the store's commits. One that
      // fails (its server's settings unreadable, Discord failing) must not hold back the others' escalations: it
      // is logged and backs off (its due time moves past its retry), so the next read passes over it.
      const outcomes = await Promise.all(
        due.map(async (card) => {
          const done = await this.checkCard(card, now).catch((error: unknown) => {
            this.deps.logger.warn(
              { guildId: card.guildId, messageId: card.messageId, err: toLoggableError(error) },
              'modcall escalation check failed; this card backs off, the others go on',
            );
            return false;
          });
          return done ? this.forgetFailures(card) : this.backOff(card);
        }),
      );
      const moved = outcomes.filter(Boolean).length;
      // A full slice that moved may have more behind it; one where nothing moved would only read itself again.
      if (due.length + unreadable.length < DUE_SLICE || moved + unreadable.length === 0) return;
    }
  }

  /** Resolves when the check under way, if any, has finished (tests). */
  settled(): Promise<void> {
    return this.repeating.settled();
  }

  /** A look at the card went through: failures before it are forgotten. True (it moved on). */
  private async forgetFailures(card: ModcallCard): Promise<boolean> {
    if (card.failures === undefined) return true;
    await this.deps.documents
      .updateModcall(card.guildId, card.messageId, (current) => current && withoutBackoff(current))
      .catch((error: unknown) =>
        this.deps.logger.warn(
          { guildId: card.guildId, messageId: card.messageId, err: toLoggableError(error) },
          "a modcall card's failures could not be cleared",
        ),
      );
    return true;
  }

  /** A look at the card failed: it is looked at again later (stored with it). True when that was stored. */
  private async backOff(card: ModcallCard): Promise<boolean> {
    const failures = (card.failures ?? 0) + 1;
    const retryAt = this.deps.clock() + backoffDelay(failures, this.deps.backoff ?? DEFAULT_BACKOFF);
    this.deps.onBackoff?.();
    try {
      await this.deps.documents.updateModcall(card.guildId, card.messageId, (current) =>
        current ? { ...current, failures, retryAt } : current,
      );
      return true;
    } catch (error) {
      this.deps.logger.warn(
        { guildId: card.guildId, messageId: card.messageId, err: toLoggableError(error) },
        "a modcall card's backoff could not be stored; looked at again at the next check",
      );
      return false;
    }
  }

  /** Handles a due card; true when it is no longer due (forgotten, escalated, or given its next time). */
  private async checkCard(card: ModcallCard, now: number): Promise<boolean> {
    const key = [card.guildId, card.messageId] as const;
    if (now >= forgetAtOf(card)) {
      await this.deps.documents.updateModcall(...key, () => undefined);
      return true;
    }
    if (!isOpen(card)) {
      // Stored before cards had due times: storing it again gives it its time (when it is forgotten).
      await this.deps.documents.updateModcall(...key, (current) => current);
      return true;
    }
    const minuteMs = this.deps.minuteMs ?? 60_000;
    // The first step of an on-duty-first card: its role, once the staff on shift let it wait role-after minutes.
    if (awaitsRolePing(card) && card.pingRoleId !== null) {
      const onDutyFirst = await this.deps.documents.onDutyFirst(card.guildId);
      // Turned off since the card was posted: its role, which only the staff on shift were pinged before, now.
      const rolePingAt =
        card.rolePingAt ?? (onDutyFirst ? card.postedAt + onDutyFirst.roleAfterMinutes * minuteMs : card.postedAt);
      if (rolePingAt !== null && rolePingAt <= now) {
        if (!(await this.pingRole(card, card.pingRoleId, rolePingAt))) return false;
      } else if (card.rolePingAt === undefined) {
        await this.deps.documents.updateModcall(...key, (current) => (current ? { ...current, rolePingAt } : current));
      }
    }
    const escalation = await this.deps.documents.escalation(card.guildId);
    const escalateAt = escalation ? card.postedAt + escalation.afterMinutes * minuteMs : null;
    if (escalation && escalateAt !== null && escalateAt <= now) {
      return this.escalate(card, escalation.roleId, escalation.afterMinutes);
    }
    // Not yet, or escalation is off (null): the card is due again at that time, or when it is forgotten.
    await this.deps.documents.updateModcall(...key, (current) =>
      current && isOpen(current) ? { ...current, escalateAt } : current,
    );
    return true;
  }

  /**
   * Pings the card's role in a reply once the staff on shift it pinged have let it wait (on-duty-first). True when
   * done (posted, or given up for a channel Discord refuses for good).
   */
  private async pingRole(card: ModcallCard, roleId: string, at: number): Promise<boolean> {
    // How long it has waited, as the staff read it (a role pinged late after a restart says so).
    const minutes = Math.round((this.deps.clock() - card.postedAt) / (this.deps.minuteMs ?? 60_000));
    const opening = `<@&${roleId}> Modcall from ${formatName(card.caller.name)} unclaimed by the staff on shift`;
    const body = {
      content: `${opening} for ${minutes} min.`,
      embeds: [],
      allowed_mentions: { parse: [], roles: [roleId], replied_user: false },
      message_reference: { message_id: card.messageId, channel_id: card.channelId, fail_if_not_exists: false },
    };
    const nonce = makeCardNonce(['role', card.guildId, card.messageId]);
    if (!(await this.postReply(card, body, nonce, 'rolePingAskedAt', replyOf(card, opening)))) return false;
    const pingedAt = this.deps.clock();
    await this.deps.documents.updateModcall(card.guildId, card.messageId, (current) =>
      current
        ? { ...current, rolePingAt: current.rolePingAt ?? at, rolePingedAt: current.rolePingedAt ?? pingedAt }
        : current,
    );
    return true;
  }

  /**
   * Posts a reply to the card, written down first (when, in the card: `asked`); true when posted (or found, posted
   * by an earlier try whose answer was lost), or given up because Discord refuses the channel for good.
   */
  private async postReply(
    card: ModcallCard,
    body: OutgoingMessage,
    nonce: string,
    asked: 'rolePingAskedAt' | 'escalationAskedAt',
    wanted: WantedPost,
  ): Promise<boolean> {
    try {
      const writtenAt = await this.writeDown(card, asked);
      await postWrittenDown(this.deps, card.channelId, body, { nonce, writtenAt }, wanted);
      return true;
    } catch (error) {
      const context = {
        guildId: card.guildId,
        messageId: card.messageId,
        err: { message: describeDiscordError(error) },
      };
      if (!isRefusedForGood(error)) {
        this.deps.logger.warn(context, 'modcall escalation not posted; this card backs off, the others go on');
        return false;
      }
      // Retrying a refusal that will not change would cost a request (and a log line) every check for a day.
      this.deps.logger.warn(context, 'modcall escalation given up: Discord refuses the channel');
      return true;
    }
  }

  /** When the reply was first tried: now, written down in the card, unless an earlier try was. */
  private async writeDown(card: ModcallCard, asked: 'rolePingAskedAt' | 'escalationAskedAt'): Promise<number> {
    const earlier = card[asked];
    if (earlier !== undefined) return earlier;
    const now = this.deps.clock();
    const stored = await this.deps.documents.updateModcall(card.guildId, card.messageId, (current) =>
      current && current[asked] === undefined ? { ...current, [asked]: now } : current,
    );
    return stored?.[asked] ?? now;
  }

  private async escalate(card: ModcallCard, roleId: string, minutes: number): Promise<boolean> {
    const opening = `<@&${roleId}> Modcall from ${formatName(card.caller.name)} unclaimed for`;
    const body = {
      content: `${opening} ${minutes} min.`,
      embeds: [],
      allowed_mentions: { parse: [], roles: [roleId], replied_user: false },
      message_reference: { message_id: card.messageId, channel_id: card.channelId, fail_if_not_exists: false },
    };
    const nonce = makeCardNonce(['escalate', card.guildId, card.messageId]);
    if (!(await this.postReply(card, body, nonce, 'escalationAskedAt', replyOf(card, opening)))) return false;
    // Posted, or given up: either way this card's escalation is over.
    const at = this.deps.clock();
    await this.deps.documents.updateModcall(card.guildId, card.messageId, (current) =>
      current ? { ...current, escalatedAt: current.escalatedAt ?? at } : current,
    );
    return true;
  }
}

/**
 * A reply of the bot to the card that opens with these words: what a try finds of an earlier one (the minutes it
 * tells may differ from try to try, and the two replies to a card open differently).
 */
function replyOf(card: ModcallCard, opening: string): WantedPost {
  return {
    matches: (message) =>
      message.message_reference?.message_id === card.messageId && message.content.startsWith(opening),
  };
}

/** The channel is gone or closed to the bot (403, 404): the same post would be refused again. */
function isRefusedForGood(error: unknown): boolean {
  return error instanceof SendError && error.failure.kind === 'broken';
}

function withoutBackoff(card: ModcallCard): ModcallCard {
  const settled = { ...card };
  delete settled.failures;
  delete settled.retryAt;
  return settled;
}
