import type { Client } from 'discord.js';

import type { SendFailure } from './posting/send-failure.js';

/** What /healthz and /status say of Discord. */
export type DiscordState = 'off' | 'connecting' | 'ready' | 'token refused' | 'rest';

/**
 * This process's view of its connection to Discord: connecting (login retried with backoff), ready, or refused
 * (Discord answers 401 to the bot's token: nothing can be posted until it takes it again).
 */
export class DiscordHealth {
  private refusedSince: number | undefined;
  /** False in a feed process whose gateway (slash commands) another process holds: it posts through REST. */
  gatewayHere = true;

  constructor(
    private readonly client: Client | undefined,
    private readonly clock: () => number,
  ) {}

  get state(): DiscordState {
    if (!this.client) return 'off';
    if (this.refusedSince !== undefined) return 'token refused';
    if (!this.gatewayHere) return 'rest';
    return this.client.isReady() ? 'ready' : 'connecting';
  }

  /** Since when Discord refuses the token, while it does. */
  get tokenRefusedSince(): number | undefined {
    return this.refusedSince;
  }

  /** A send's outcome: a 401 starts the refusal; any confirmed send ends it. */
  noteSend(failure: SendFailure | undefined): void {
    if (failure?.kind === 'unauthorized') this.refusedSince ??= this.clock();
    else if (failure === undefined) this.refusedSince = undefined;
  }
}
