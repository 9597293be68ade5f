import { DiscordAPIError } from 'discord.js';

import { describeDiscordError, type CardPoster } from '../apps/card-poster.js';
import { makeCardNonce } from '../apps/release-card.js';
import type { Clock } from '../clock.js';
import { toLoggableError } from '../discord/log-error.js';
import { formatName } from '../embeds/format.js';
import type { Logger } from '../logger.js';
import type { Timers } from '../timers.js';
import type { CardRecords, ModcallCard } from './card-records.js';

/** How often unclaimed modcalls are looked at. */
const DEFAULT_CHECK_EVERY_MS = 15_000;
/** Cards are forgotten this long after they were resolved, or after they were posted when never resolved. */
const KEEP_CARDS_MS = 24 * 60 * 60 * 1000;

export interface ModcallEscalatorDeps {
  records: CardRecords;
  poster: CardPoster;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  checkEveryMs?: number;
  /** The unit of escalate-after; tests shorten it. */
  minuteMs?: number;
}

/**
 * Escalates modcalls nobody claimed: after the server's escalate-after minutes, one reply to the card that pings
 * the escalation role only (its nonce is the card's, so a retry after a crash lands on the same reply). Runs in
 * the process that holds the gateway, like the cards' buttons.
 */
export class ModcallEscalator {
  private timer: unknown;
  private running = false;
  private checking: Promise<void> | undefined;

  constructor(private readonly deps: ModcallEscalatorDeps) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.deps.timers.clearTimeout(this.timer);
    await this.checking;
  }

  /** Looks at every open card now (tests; the timer does it every 15 s). */
  async check(): Promise<void> {
    const now = this.deps.clock();
    for (const card of await this.deps.records.listModcalls()) {
      // One card that fails (its server's settings unreadable, a write refused) must not hold back the others'
      // escalations: it is logged and looked at again at the next check.
      await this.checkCard(card, now).catch((error: unknown) =>
        this.deps.logger.warn(
          { guildId: card.guildId, messageId: card.messageId, err: toLoggableError(error) },
          'modcall escalation check failed; retried at the next check',
        ),
      );
    }
  }

  /** Resolves when the check under way, if any, has finished (tests). */
  async settled(): Promise<void> {
    await this.checking;
  }

  private async checkCard(card: ModcallCard, now: number): Promise<void> {
    if (isStale(card, now)) {
      await this.deps.records.updateModcall(card.guildId, card.messageId, () => undefined);
      return;
    }
    if (card.claimedBy !== null || card.resolvedAt !== null || card.escalatedAt !== null) return;
    const escalation = await this.deps.records.escalation(card.guildId);
    if (!escalation) return;
    if (now - card.postedAt < escalation.afterMinutes * (this.deps.minuteMs ?? 60_000)) return;
    await this.escalate(card, escalation.roleId, escalation.afterMinutes);
  }

  private async escalate(card: ModcallCard, roleId: string, minutes: number): Promise<void> {
    const body = {
      content: `<@&${roleId}> Modcall from ${formatName(card.caller.name)} unclaimed for ${minutes} min.`,
      embeds: [],
      allowed_mentions: { parse: [], roles: [roleId], replied_user: false },
      message_reference: { message_id: card.messageId, channel_id: card.channelId, fail_if_not_exists: false },
    };
    try {
      await this.deps.poster.post(card.channelId, body, makeCardNonce(['escalate', card.guildId, card.messageId]));
    } catch (error) {
      const context = {
        guildId: card.guildId,
        messageId: card.messageId,
        err: { message: describeDiscordError(error) },
      };
      if (!isRefusedForGood(error)) {
        this.deps.logger.warn(context, 'modcall escalation not posted; retried at the next check');
        return;
      }
      // Retrying a refusal that will not change would cost a request (and a log line) every tick for a day.
      this.deps.logger.warn(context, 'modcall escalation given up: Discord refuses the channel');
    }
    // Posted, or given up: either way this card's escalation is over.
    const at = this.deps.clock();
    await this.deps.records.updateModcall(card.guildId, card.messageId, (current) =>
      current ? { ...current, escalatedAt: current.escalatedAt ?? at } : current,
    );
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = this.deps.timers.setTimeout(() => {
      this.checking = this.check()
        .catch((error: unknown) =>
          this.deps.logger.warn(
            { err: toLoggableError(error) },
            'modcall escalation check failed; retried at the next check',
          ),
        )
        .finally(() => {
          this.checking = undefined;
          this.schedule();
        });
    }, this.deps.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS);
  }
}

/** Discord's 403 (no access) and 404 (channel gone): the same post would be refused again. */
function isRefusedForGood(error: unknown): boolean {
  return error instanceof DiscordAPIError && (error.status === 403 || error.status === 404);
}

function isStale(card: ModcallCard, now: number): boolean {
  return now - (card.resolvedAt ?? card.postedAt) > KEEP_CARDS_MS;
}
