import { SnowflakeUtil } from 'discord.js';

import type { FakeDiscord } from '../../fakes/discord/index.js';
import { chatInputCommand } from '../../fakes/discord/interaction-builders.js';

/** What became of one `/status`. */
export type StatusOutcome =
  | { kind: 'answered'; at: number; ms: number }
  /** No session of the shard had its socket open at the fake when it was sent: nobody could answer it. */
  | { kind: 'not delivered' }
  /** Delivered to a live session, no answer within the wait (it may still come: see {@link StatusCommands.tally}). */
  | { kind: 'unanswered' }
  /** Answered, but not with the feed's status (an error): the member asks again. */
  | { kind: 'wrong answer' };

/** The first line of `/status`'s answer (src/features/health/describe-status.ts). */
const STATUS_REPLY = 'Feed status of this server';

/** Every `/status` sent, counted as a user would see them once the dust settled. */
export interface StatusTally {
  sent: number;
  delivered: number;
  notDelivered: number;
  /** Delivered to a live session and answered within the wait, but not with the feed's status. */
  wrongAnswers: number;
  /** Any command (delivered or not) with more than one callback: a member would see two answers. */
  answeredTwice: number;
  /**
   * Delivered to a live session and never answered: the fake, as Discord, refuses a callback later than 3 s after
   * the interaction (10062 Unknown interaction), so one answered too late counts here too, as its member saw it fail.
   */
  lost: number;
  /** Those, by shard and when they were sent (epoch ms). */
  lostCommands: Array<{ shard: number; sentAt: number }>;
  /** The slowest answer of a delivered command, ms (Discord fails an interaction not answered within 3 s). */
  slowestMs: number;
}

interface Sent {
  id: string;
  shard: number;
  sentAt: number;
  delivered: boolean;
}

/**
 * `/status` commands sent through the fake Discord to the shard of a guild, as members would type them while the
 * shards move, and the count of what became of them: each is delivered to a live gateway session of its shard or
 * to none (a shard between two holders: Discord's own outage, not the bot's), answered once, twice or never.
 */
export class StatusCommands {
  private readonly sent: Sent[] = [];
  private slowestMs = 0;
  private wrongAnswers = 0;

  constructor(private readonly discord: FakeDiscord) {}

  /** Sends `/status` in `guildId` (of `shard`) and waits up to `timeoutMs` for its answer when it was delivered. */
  async send(guildId: string, channelId: string, shard: number, timeoutMs: number): Promise<StatusOutcome> {
    const id = SnowflakeUtil.generate().toString();
    // Read in the same turn as the dispatch below reaches the sockets: nothing can open or close in between.
    const delivered = this.discord.gatewaySessionList.some(
      (session) => session.connected && session.shard[0] === shard,
    );
    const started = Date.now();
    const answer = this.discord.dispatchInteraction(
      chatInputCommand({ name: 'status', guildId, channelId, overrides: { id } }),
      { timeoutMs },
    );
    // A command no one heard waits for nobody; one that was heard and times out is judged in tally().
    answer.catch(() => undefined);
    this.sent.push({ id, shard, sentAt: started, delivered });
    if (!delivered) return { kind: 'not delivered' };
    try {
      const outcome = await answer;
      const ms = Date.now() - started;
      this.slowestMs = Math.max(this.slowestMs, ms);
      if (outcome.reply?.content.includes(STATUS_REPLY) !== true) {
        this.wrongAnswers += 1;
        return { kind: 'wrong answer' };
      }
      return { kind: 'answered', at: Date.now(), ms };
    } catch {
      return { kind: 'unanswered' };
    }
  }

  /** What became of every command sent so far, read from the fake's record of each one's answers. */
  tally(): StatusTally {
    let delivered = 0;
    let answeredTwice = 0;
    const lostCommands: StatusTally['lostCommands'] = [];
    for (const command of this.sent) {
      const callbacks = this.discord.interactionResponses(command.id).filter((r) => r.kind === 'callback');
      if (callbacks.length > 1) answeredTwice += 1;
      if (!command.delivered) continue;
      delivered += 1;
      if (callbacks.length === 0) lostCommands.push({ shard: command.shard, sentAt: command.sentAt });
    }
    return {
      sent: this.sent.length,
      delivered,
      notDelivered: this.sent.length - delivered,
      wrongAnswers: this.wrongAnswers,
      answeredTwice,
      lost: lostCommands.length,
      lostCommands,
      slowestMs: this.slowestMs,
    };
  }
}
