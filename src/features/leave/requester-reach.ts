import { MessageFlags, type ChatInputCommandInteraction, type Client } from 'discord.js';

import type { Clock } from '../../base/clock.js';

/** Discord lets an interaction's token send follow-ups for 15 minutes; a little is kept in hand. */
const FOLLOW_UP_WINDOW_MS = 14 * 60 * 1000;
/** Requests whose asking interaction is kept at most (the oldest go first): the memory stays bounded. */
const MOST_KEPT = 1_000;

/**
 * Tells a member what became of their request: by direct message, or, where their DMs are closed, by an ephemeral
 * follow-up to the /leave request they typed while its token lasts (kept in memory only: a token is a credential,
 * never stored). True when they were told.
 */
export class RequesterReach {
  private readonly asked = new Map<string, { interaction: ChatInputCommandInteraction; at: number }>();

  constructor(
    private readonly client: Pick<Client, 'users'>,
    private readonly clock: Clock,
  ) {}

  /** The member's /leave request for request `number`: a follow-up may reach them through it for a while. */
  keep(guildId: string, number: number, interaction: ChatInputCommandInteraction): void {
    this.asked.set(`${guildId}:${number}`, { interaction, at: this.clock() });
    for (const key of this.asked.keys()) {
      if (this.asked.size <= MOST_KEPT) break;
      this.asked.delete(key);
    }
  }

  async tell(guildId: string, number: number, memberId: string, text: string): Promise<'dm' | 'follow-up' | 'none'> {
    try {
      await this.client.users.send(memberId, { content: text, allowedMentions: { parse: [] } });
      return 'dm';
    } catch {
      // DMs closed (or not allowed by the server): the follow-up, if the asking interaction is still fresh.
    }
    const key = `${guildId}:${number}`;
    const asked = this.asked.get(key);
    this.asked.delete(key);
    if (!asked || this.clock() - asked.at > FOLLOW_UP_WINDOW_MS) return 'none';
    try {
      await asked.interaction.followUp({
        content: text,
        flags: MessageFlags.Ephemeral,
        allowedMentions: { parse: [] },
      });
      return 'follow-up';
    } catch {
      return 'none';
    }
  }
}
