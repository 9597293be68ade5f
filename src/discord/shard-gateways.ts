import { setTimeout as sleep } from 'node:timers/promises';
import { Events, Routes, Status, type Client, type RESTGetAPIGatewayBotResult } from 'discord.js';

import type { BackoffPolicy } from '../base/backoff.js';
import type { Logger } from '../base/logger.js';
import type { ShardListener } from '../store/coordination.js';
import { connectDiscord, logGatewayShards } from './connect-discord.js';
import { createDiscordClient, type DiscordClientOptions } from './create-client.js';
import { toLoggableError } from './log-error.js';
import { shardOfGuild } from './snowflake.js';

/** Discord's wait between two identifies of one bucket. */
const IDENTIFY_SPACING_MS = 5_000;
/**
 * How long a shard being given back waits for a login under way to end (it closes what it opened): past it, the
 * shard goes anyway, and a session that still comes up is closed as soon as it does (connect-discord.ts).
 */
const LOGIN_SETTLE_MS = 10_000;

/** The gateway events the process's own listeners hear, whichever shard's client received them. */
const HANDED_ON = [Events.GuildDelete, Events.GuildRoleUpdate] as const;

/** What a shard's client is given as it is made: the process's interactions, answered while it holds the shard. */
export type AttachShard = (client: Client, holdsShard: () => boolean) => void;

export interface ShardGatewaysDeps {
  /**
   * The process's client: it never logs in to the gateway here, it posts (REST) and its listeners (the removals,
   * the duty role's watch) hear what each shard's client receives.
   */
  discord: Client;
  /**
   * Attaches the slash commands, buttons and dialogs to a shard's client: they are answered with that client,
   * whose cache holds the shard's guilds (the process's client keeps none).
   */
  attach: AttachShard;
  token: string;
  client: Pick<DiscordClientOptions, 'apiUrl' | 'rest'>;
  logger: Logger;
  /** Whether this process holds the shard now, its lease confirmed: an interaction is answered only then. */
  holds(shard: number): boolean;
  /** Takes the identify turn of this bucket for the whole deployment: 0 when taken, else when to ask again (ms). */
  identifyTurn(bucket: number, spacingMs: number): Promise<number>;
  /** Told when a shard's client is ready (every guild of the shard received). */
  onReady(client: Client<true>, speaksFor: (guildId: string) => boolean): void;
  loginBackoff?: BackoffPolicy | undefined;
}

/** How a shard's client is closed here: its login given up, then its connection closed. */
interface Closing {
  login: AbortController;
  /** The client's destroy(), once close() began it. */
  destroyed: Promise<unknown> | undefined;
}

interface OpenShard extends Closing {
  client: Client;
  /** The first login attempt, settled (a login abandoned meanwhile has closed what it opened by then). */
  firstAttempt: Promise<unknown>;
}

/**
 * The gateway shards this process holds, where the store spreads them over the feed processes: one discord.js
 * client per shard, each identifying as `[shard, count]`, so a shard comes and goes without touching the others
 * (a process that takes a dead one's shards identifies those only; its own stay connected). Each client keeps the
 * cache of its shard's guilds and answers their interactions itself, only while this process still holds its
 * shard (one arriving on a shard already lost, a paused process waking, is left to the shard's next holder); the
 * other events it hears go on to the process's client, whose listeners are the same as with one process.
 */
export class ShardGateways implements ShardListener {
  private readonly open = new Map<number, OpenShard>();
  private stopped = false;

  constructor(private readonly deps: ShardGatewaysDeps) {}

  async recommended(): Promise<number> {
    const info = (await this.deps.discord.rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
    return info.shards;
  }

  gained(shards: readonly number[], count: number): void {
    if (this.stopped) return;
    for (const shard of shards) if (!this.open.has(shard)) this.connect(shard, count);
  }

  async losing(shards: readonly number[]): Promise<void> {
    await Promise.all(shards.map((shard) => this.close(shard)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.losing([...this.open.keys()]);
  }

  /** Each held shard's discord.js status, by shard id (a client not yet connected: connecting). */
  statuses(): Array<[number, Status]> {
    return [...this.open]
      .sort(([a], [b]) => a - b)
      .map(([shard, { client }]) => [shard, client.ws.shards.get(shard)?.status ?? Status.Connecting]);
  }

  private connect(shard: number, count: number): void {
    const { deps } = this;
    const login = new AbortController();
    const closing: Closing = { login, destroyed: undefined };
    const client = createDiscordClient({
      ...deps.client,
      shard: {
        id: shard,
        count,
        identifyThrottler: async (manager) => {
          const { max_concurrency: concurrency } = (await manager.fetchGatewayInformation()).session_start_limit;
          return {
            // Asked until the turn is this shard's; given up the moment the shard is closed here, so a shard given
            // back never identifies later, nor holds a turn meanwhile.
            waitForIdentify: async (shardId: number, signal: AbortSignal) => {
              const closed = AbortSignal.any([signal, login.signal]);
              const bucket = shardId % Math.max(1, concurrency);
              try {
                for (;;) {
                  closed.throwIfAborted();
                  const waitMs = await deps.identifyTurn(bucket, IDENTIFY_SPACING_MS);
                  closed.throwIfAborted();
                  if (waitMs === 0) return;
                  await sleep(waitMs, undefined, { signal: closed });
                }
              } catch (error) {
                // Closed here while it waited (given back): once its connection is closed, @discordjs/ws takes the
                // error as the shard's own close and gives the identify up quietly; an error alone would make it
                // connect again and ask again. The close under way closes it, unless it ran before this
                // connection existed (the login went on after it): then it is closed here, never twice at once.
                if (login.signal.aborted) {
                  await closing.destroyed;
                  if (!signal.aborted) await manager.destroy({ reason: 'the shard went to another process' });
                }
                throw error;
              }
            },
          };
        },
      },
    });
    deps.attach(client, () => deps.holds(shard));
    for (const event of HANDED_ON) {
      client.on(event, (...args: unknown[]) => deps.discord.emit(event, ...(args as [never, never])));
    }
    client.on(Events.ClientReady, (ready) => deps.onReady(ready, (guildId) => shardOfGuild(guildId, count) === shard));
    logGatewayShards(client, deps.logger);
    const firstAttempt = connectDiscord(client, deps.token, {
      logger: deps.logger,
      refusalIsFatal: false,
      signal: login.signal,
      ...(deps.loginBackoff ? { backoff: deps.loginBackoff } : {}),
    }).catch((error: unknown) =>
      deps.logger.error({ shard, err: toLoggableError(error) }, 'Discord login of a gateway shard failed'),
    );
    this.open.set(shard, Object.assign(closing, { client, firstAttempt }));
  }

  /** Its login abandoned and its connection closed: only then may another process take the shard. */
  private async close(shard: number): Promise<void> {
    const open = this.open.get(shard);
    if (!open) return;
    this.open.delete(shard);
    open.login.abort();
    try {
      open.destroyed = open.client.destroy();
      await open.destroyed;
      // A login under way goes on connecting after a destroy(): it closes what it opened once it ends, and the
      // shard is another process's only after that (two live sessions of one shard would answer twice).
      let settle: NodeJS.Timeout | undefined;
      await Promise.race([
        open.firstAttempt,
        new Promise((resolve) => (settle = setTimeout(resolve, LOGIN_SETTLE_MS))),
      ]);
      clearTimeout(settle);
    } catch (error) {
      this.deps.logger.warn({ shard, err: toLoggableError(error) }, 'closing a gateway shard failed');
    }
  }
}
