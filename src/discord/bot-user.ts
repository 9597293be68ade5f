import { ClientUser, Routes, type APIUser, type Client } from 'discord.js';

import { backoffDelay, type BackoffPolicy } from '../base/backoff.js';
import type { Logger } from '../base/logger.js';
import { toLoggableError } from './log-error.js';

const RETRY: BackoffPolicy = { baseMs: 2_000, capMs: 60_000 };

/**
 * Gives the process's client the bot's user where it never logs in to the gateway (the shards spread over the
 * processes, each in a client of its own): discord.js makes `client.user` from the gateway's READY, and reads it
 * wherever it looks for the bot itself (`guild.members.fetchMe()`, the role checks, a channel's permissions).
 * Asked of Discord (`GET /users/@me`), again with backoff until it answers.
 */
export function learnBotUser(client: Client, logger: Logger, retry: BackoffPolicy = RETRY): { stop(): void } {
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const attempt = async () => {
    if (stopped || client.user) return;
    try {
      const data = (await client.rest.get(Routes.user())) as APIUser;
      // The constructor READY uses (typed as discord.js's own).
      const Made = ClientUser as unknown as new (client: Client, data: APIUser) => ClientUser;
      (client as { user: ClientUser | null }).user ??= new Made(client, data);
    } catch (error) {
      failures += 1;
      logger.warn({ failures, err: toLoggableError(error) }, "asking Discord for the bot's own user failed; retrying");
      timer = setTimeout(() => void attempt(), backoffDelay(failures, retry));
      timer.unref();
    }
  };
  void attempt();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
