import { DiscordAPIError, DiscordjsErrorCodes, Events, GatewayCloseCodes, Routes, type Client } from 'discord.js';

import { backoffDelay, type BackoffPolicy } from '../base/backoff.js';
import type { Logger } from '../base/logger.js';
import { StartupError } from '../base/startup-error.js';

/** How long to wait between logins that failed: from 2 s up to 2 min. */
export const LOGIN_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 120_000 };

export interface ConnectOptions {
  logger: Logger;
  backoff?: BackoffPolicy;
  /** Told when Discord refuses the token on a retry (the first refusal ends the start instead). */
  onTokenRefused?: () => void;
  /** false: a refusal at the first try is logged and retried too (a process that checked the token at start). */
  refusalIsFatal?: boolean;
  /**
   * Aborted when the login is no longer wanted (the gateway went to another process), even during the first
   * attempt: no further attempt is made, and a login that comes up after all is closed again at once.
   */
  signal?: AbortSignal;
}

/** A login loop running in the background; stop() ends it (as aborting its signal does). */
export interface DiscordConnection {
  stop(): void;
}

/**
 * The newest connection made for each client: a login abandoned after a newer one began (the gateway lost and
 * retaken meanwhile) leaves the client to that one instead of closing it.
 */
const newest = new WeakMap<Client, object>();

/**
 * Logs the client in. The intake never depends on this: when Discord fails (5xx, timeouts, a refused gateway)
 * the login is retried in the background with backoff, logged each time, while the process keeps serving.
 * A token Discord refuses at the first try is a configuration error: a {@link StartupError} the host must fix.
 */
export async function connectDiscord(
  client: Client,
  token: string,
  options: ConnectOptions,
): Promise<DiscordConnection> {
  const backoff = options.backoff ?? LOGIN_BACKOFF;
  const self = {};
  newest.set(client, self);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let failures = 0;
  const abandoned = () => stopped || options.signal?.aborted === true;

  const attempt = async (): Promise<boolean> => {
    if (abandoned()) return true;
    try {
      // Asked first with the REST client alone: a failed client.login() marks discord.js's gateway manager
      // destroyed for good (no later login would connect), so login runs only once Discord answers.
      await checkToken(client, token);
      // Abandoned while Discord answered: no login at all (the connection was closed without this one).
      if (abandoned()) return true;
      // A client destroyed before (a failed login, or a gateway handed to another process) stays marked
      // destroyed and would never reconnect: the mark (typed private, but the flag discord.js reads) is undone.
      (client.ws as unknown as { destroyed: boolean }).destroyed = false;
      await client.login(token);
      // Abandoned during the login: discord.js goes on connecting after a destroy() made while it asked Discord
      // for the gateway, so the connection it made is closed here, unless a newer login has the client now.
      if (abandoned()) {
        if (newest.get(client) === self) await disconnectGateway(client, token);
        options.logger.info('a Discord login abandoned meanwhile came up; it was closed again');
        return true;
      }
      if (failures > 0) options.logger.info({ failures }, 'Discord login succeeded');
      return true;
    } catch (error) {
      // Given up meanwhile (the gateway or the shard went elsewhere, its identify's wait cut short): not a failure.
      if (abandoned()) return true;
      failures += 1;
      if (isTokenRefused(error)) {
        if (failures === 1 && options.refusalIsFatal !== false) throw new StartupError(TOKEN_REFUSED);
        options.onTokenRefused?.();
        options.logger.error({ failures }, `Discord login failed: ${TOKEN_REFUSED}`);
      } else {
        options.logger.warn(
          { failures, err: describe(error) },
          'Discord login failed; the intake keeps running, retrying',
        );
      }
      return false;
    }
  };
  const retryLater = () => {
    if (abandoned()) return;
    timer = setTimeout(
      () => {
        void attempt().then((ok) => {
          if (!ok) retryLater();
        });
      },
      backoffDelay(failures, backoff),
    );
    timer.unref();
  };

  if (!(await attempt())) retryLater();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Closes the client's gateway connection (every shard) and keeps its REST client usable: discord.js's destroy()
 * forgets the token, and the feed still posts from a process without the gateway.
 */
export async function disconnectGateway(client: Client, token: string): Promise<void> {
  // A destroy() made while a login was under way marked the manager destroyed, and discord.js's destroy() does
  // nothing for a manager so marked: the connection that login made after it would stay open. The mark is undone.
  (client.ws as unknown as { destroyed: boolean }).destroyed = false;
  await client.destroy();
  client.rest.setToken(token);
}

/**
 * Asks Discord for the gateway with the REST client alone: cheap, and it tells a refused token (401) from
 * Discord being down. Leaves the token set on the REST client, so sends work without a gateway.
 */
export async function checkToken(client: Client, token: string): Promise<void> {
  client.rest.setToken(token);
  await client.rest.get(Routes.gatewayBot());
}

/** What the host reads when Discord refuses the token: what to do about it, never the token. */
export const TOKEN_REFUSED =
  'Discord refused DISCORD_TOKEN (401): reset the token in the Discord developer portal (your app → Bot → Reset ' +
  'Token) and put the new one in .env';

/** Whether an error from {@link checkToken} or a login means Discord refuses the token. */
export function isTokenRefused(error: unknown): boolean {
  if (error instanceof DiscordAPIError) return error.status === 401;
  return (error as { code?: unknown }).code === DiscordjsErrorCodes.TokenInvalid;
}

/** Only the error's name and message: a discord.js error can carry the request, with its headers. */
function describe(error: unknown): { type: string; message: string } {
  return error instanceof Error
    ? { type: error.name, message: error.message }
    : { type: typeof error, message: String(error) };
}

/**
 * Logs each gateway shard's life: ready, reconnecting, resumed, and a close discord.js will not recover from (the
 * shard then stays down, and /healthz says `connecting`, until the bot restarts). 4011 means Discord wants more
 * shards than this process opened; the count is read from Discord at the process's first login, so a restart
 * takes the new one.
 */
export function logGatewayShards(client: Client, logger: Logger): void {
  client.on(Events.ShardReady, (shard) => logger.info({ shard }, 'Discord gateway shard ready'));
  client.on(Events.ShardReconnecting, (shard) => logger.info({ shard }, 'Discord gateway shard reconnecting'));
  client.on(Events.ShardResume, (shard, replayed) => logger.info({ shard, replayed }, 'Discord gateway shard resumed'));
  client.on(Events.ShardError, (error, shard) =>
    logger.warn({ shard, err: describe(error) }, 'Discord gateway shard connection error; it reconnects'),
  );
  client.on(Events.ShardDisconnect, ({ code }, shard) => {
    const advice =
      code === (GatewayCloseCodes.ShardingRequired as number)
        ? 'Discord wants more shards (4011, sharding required): restart the bot so it asks Discord for the count again'
        : `Discord closed it with ${code}, which it does not reconnect after: restart the bot once that is fixed`;
    logger.error({ shard, code }, `Discord gateway shard down for good: ${advice}`);
  });
}
