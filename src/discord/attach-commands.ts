import type { Client } from 'discord.js';

import { COMMANDS } from '../../commands/index.js';
import { WebhookStates } from '../admin/webhook-states.js';
import type { Config } from '../config.js';
import type { HookActivity } from '../intake/hook-activity.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/open-store.js';
import type { SecretBox } from '../store/secret-box.js';
import { createServiceClient, type ServiceClient } from '../upstream/client.js';
import { DEFAULT_PING_TIMEOUT_MS, type CommandContext } from './command-context.js';
import { attachInteractionDispatcher } from './interaction-dispatch.js';

/** The parts of a running bot the slash commands use (see {@link CommandContext}). */
export interface CommandWiring {
  client: Client;
  config: Pick<Config, 'PUBLIC_URL' | 'SERVICE_URL'>;
  store: Pick<Store, 'hooks' | 'guilds'>;
  secrets: SecretBox;
  activity: HookActivity;
  worker: CommandContext['worker'];
  logger: Logger;
  clock: () => number;
  /** Defaults to PUBLIC_URL; tests give the intake's own http:// address. */
  webhookBaseUrl?: string;
  /** Defaults to a client of SERVICE_URL. */
  service?: ServiceClient;
  pingTimeoutMs?: number;
}

/**
 * Builds the command context and serves every command of `commands/` on the client's interactions.
 * Registering the commands with Discord is not done here: that is `npm run deploy-commands`, run once.
 * @returns the function that stops serving them
 */
export function attachCommands(wiring: CommandWiring): () => void {
  const ctx: CommandContext = {
    store: wiring.store,
    secrets: wiring.secrets,
    service: wiring.service ?? createServiceClient({ serviceUrl: wiring.config.SERVICE_URL }),
    config: wiring.config,
    webhookBaseUrl: (wiring.webhookBaseUrl ?? wiring.config.PUBLIC_URL).replace(/\/+$/, ''),
    worker: wiring.worker,
    activity: wiring.activity,
    webhookStates: new WebhookStates(),
    logger: wiring.logger,
    clock: wiring.clock,
    client: wiring.client,
    pingTimeoutMs: wiring.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS,
  };
  return attachInteractionDispatcher(wiring.client, COMMANDS, ctx);
}
