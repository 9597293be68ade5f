import type { Client } from 'discord.js';

import type { BackoffPolicy } from './base/backoff.js';
import type { Logger } from './base/logger.js';
import { SerialToggle } from './base/serial-toggle.js';
import { connectDiscord, disconnectGateway } from './discord/connect-discord.js';
import type { DiscordHealth } from './discord/discord-health.js';
import { toLoggableError } from './discord/log-error.js';
import type { Job } from './features/feature.js';

export interface GatewayRoleDeps {
  discord: Client;
  token: string;
  discordHealth: DiscordHealth;
  /** The features' jobs: they run where the gateway is, once per deployment. */
  jobs: readonly Job[];
  logger: Logger;
  /** Between failed logins (connect-discord.ts's default otherwise). */
  loginBackoff?: BackoffPolicy | undefined;
  /**
   * The lease brings the jobs only: the gateway's shards are spread over the processes and opened apart
   * (shard-gateways.ts), where the store leases them.
   */
  jobsOnly?: boolean;
}

/**
 * What this process runs while it holds the gateway: the Discord gateway connection (slash commands) and the
 * features' jobs, told each time the store's coordination gives or takes the gateway. A PostgreSQL blip or a
 * failover can take it and give it back several times in a row, while a login, a job's run or its stop is still
 * under way.
 *
 * - A loss is acted on at once: the login under way is abandoned (even its first attempt) and the connection
 *   closed, so no gateway stays open, or comes up, in a process that no longer holds it.
 * - A new login waits until the last connection is closed: discord.js's destroy() and login() on one client must
 *   not overlap.
 * - The jobs start and stop one transition at a time ({@link SerialToggle}): a job is started again only once its
 *   stop has finished, so each runs once in this process, however often the gateway flaps.
 */
export class GatewayRole {
  private readonly jobs: SerialToggle;
  /** The login of the gateway held now; aborted when it is lost. */
  private login: AbortController | undefined;
  /** The closing of the last connection (resolved when there is none to close). */
  private disconnected: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly deps: GatewayRoleDeps) {
    this.jobs = new SerialToggle({ on: () => this.startJobs(), off: () => this.stopJobs() });
  }

  /** The store's coordination gave (true) or took (false) the gateway. */
  held(held: boolean): void {
    const { logger, discordHealth } = this.deps;
    if (held && this.closed) return;
    discordHealth.gatewayHere = held;
    if (this.deps.jobsOnly) {
      logger.info(held ? "this process runs the deployment's jobs" : 'this process no longer runs the jobs');
      void this.jobs.set(held);
      return;
    }
    if (held) {
      logger.info('this process holds the gateway: slash commands are answered here');
      this.connect();
      void this.jobs.set(true);
      return;
    }
    logger.info('this process no longer holds the gateway: disconnecting from it');
    this.login?.abort();
    this.login = undefined;
    this.disconnected = this.disconnected.then(() =>
      disconnectGateway(this.deps.discord, this.deps.token).catch((error: unknown) =>
        logger.warn({ err: toLoggableError(error) }, 'closing the gateway connection failed'),
      ),
    );
    void this.jobs.set(false);
  }

  /** The process stops: the login is abandoned and the jobs stopped; the gateway is not taken again. */
  async stop(): Promise<void> {
    this.closed = true;
    this.login?.abort();
    this.login = undefined;
    await this.jobs.set(false);
  }

  /** Logs in once the last connection is closed, unless the gateway is lost again before that. */
  private connect(): void {
    if (this.login && !this.login.signal.aborted) return;
    const login = new AbortController();
    this.login = login;
    const { discord, token, logger, loginBackoff } = this.deps;
    void this.disconnected.then(async () => {
      if (login.signal.aborted) return;
      try {
        // The token was checked at start: a refusal later is reported (/status, /healthz) and retried, not fatal.
        await connectDiscord(discord, token, {
          logger,
          refusalIsFatal: false,
          signal: login.signal,
          ...(loginBackoff ? { backoff: loginBackoff } : {}),
        });
      } catch (error) {
        logger.error({ err: toLoggableError(error) }, 'Discord login failed');
      }
    });
  }

  private async startJobs(): Promise<void> {
    await Promise.all(
      this.deps.jobs.map(async (job) => {
        try {
          await job.start();
        } catch (error) {
          this.deps.logger.error({ err: toLoggableError(error) }, 'a job could not start');
        }
      }),
    );
  }

  private async stopJobs(): Promise<void> {
    await Promise.all(
      this.deps.jobs.map(async (job) => {
        try {
          await job.stop();
        } catch (error) {
          this.deps.logger.error({ err: toLoggableError(error) }, 'a job did not stop cleanly');
        }
      }),
    );
  }
}
