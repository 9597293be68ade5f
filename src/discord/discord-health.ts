import { Status, type Client } from 'discord.js';

import type { SendFailure } from './posting/send-failure.js';

/** What /healthz and /status say of Discord. */
export type DiscordState = 'off' | 'connecting' | 'ready' | 'token refused' | 'rest';

/** What /healthz says of one gateway shard: discord.js's own status, in words. */
export type ShardState =
  | 'ready'
  | 'connecting'
  | 'reconnecting'
  | 'idle'
  | 'nearly'
  | 'disconnected'
  | 'waiting for guilds'
  | 'identifying'
  | 'resuming';

const SHARD_STATES: Readonly<Record<Status, ShardState>> = {
  [Status.Ready]: 'ready',
  [Status.Connecting]: 'connecting',
  [Status.Reconnecting]: 'reconnecting',
  [Status.Idle]: 'idle',
  [Status.Nearly]: 'nearly',
  [Status.Disconnected]: 'disconnected',
  [Status.WaitingForGuilds]: 'waiting for guilds',
  [Status.Identifying]: 'identifying',
  [Status.Resuming]: 'resuming',
};

/**
 * This process's view of its connection to Discord: connecting (login retried with backoff, or a shard
 * reconnecting), ready (every gateway shard is), or refused (Discord answers 401 to the bot's token: nothing can
 * be posted until it takes it again).
 */
export class DiscordHealth {
  private refusedSince: number | undefined;
  /** False in a feed process whose gateway (slash commands) another process holds: it posts through REST. */
  gatewayHere = true;
  /** Where the store spreads the shards over the processes: the ones this process opened (shard-gateways.ts). */
  private spread: { statuses(): Array<[number, Status]> } | undefined;

  constructor(
    private readonly client: Client | undefined,
    private readonly clock: () => number,
  ) {}

  /** The shards are spread over the processes: this process's own stand for the gateway from now on. */
  useShardGateways(gateways: { statuses(): Array<[number, Status]> }): void {
    this.spread = gateways;
  }

  get state(): DiscordState {
    if (!this.client) return 'off';
    if (this.refusedSince !== undefined) return 'token refused';
    if (this.spread) {
      const statuses = this.spread.statuses();
      if (statuses.length === 0) return 'rest';
      return statuses.every(([, status]) => status === Status.Ready) ? 'ready' : 'connecting';
    }
    if (!this.gatewayHere) return 'rest';
    // discord.js stays "ready" while one of its shards reconnects (it was ready once): each shard is asked too.
    const shards = this.client.ws.shards;
    const allReady = shards.size > 0 && shards.every((shard) => shard.status === Status.Ready);
    return this.client.isReady() && allReady ? 'ready' : 'connecting';
  }

  /**
   * Each gateway shard's state by shard id, where this process holds the gateway and has started its shards;
   * undefined otherwise (no client, the gateway held elsewhere, or no login yet).
   */
  get shards(): Record<string, ShardState> | undefined {
    if (this.spread) {
      const statuses = this.spread.statuses();
      if (!this.client || statuses.length === 0) return undefined;
      return Object.fromEntries(statuses.map(([id, status]) => [String(id), SHARD_STATES[status]]));
    }
    if (!this.client || !this.gatewayHere || this.client.ws.shards.size === 0) return undefined;
    const states: Record<string, ShardState> = {};
    for (const [id, shard] of [...this.client.ws.shards].sort(([a], [b]) => a - b)) {
      states[String(id)] = SHARD_STATES[shard.status];
    }
    return states;
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
