import { UserFacingError } from '../../base/errors.js';
import type { ServiceClient } from '../../upstream/client.js';
import {
  describePing,
  openServerKey,
  pingWebhook,
  switchWebhookOn,
  type PingDeps,
  type ServerKeyDeps,
  type ServiceHook,
} from '../webhooks/index.js';

export interface ProbeDeps extends PingDeps, ServerKeyDeps {
  service: Pick<ServiceClient, 'testWebhook' | 'enableWebhook'>;
  publicUrl: string;
}

/** What a test ping found, in words an admin can act on (never a key or a secret: describePing's texts). */
export interface Probe {
  arrived: boolean;
  text: string;
}

/**
 * The service's test ping, sent and awaited at our intake, as a verdict: arrived and verified, or why not.
 * A refusal by the service (no key, switched off, key revoked) is a verdict too, not an error.
 */
export async function probeWebhook(deps: ProbeDeps, hook: ServiceHook): Promise<Probe> {
  try {
    const key = await openServerKey(deps, hook.guildId);
    const run = await pingWebhook(deps, hook, key);
    return {
      arrived: run.outcome?.ok === true,
      text: describePing({ ...run, webhook: hook.webhookId, publicUrl: deps.publicUrl, timeoutMs: deps.pingTimeoutMs }),
    };
  } catch (error) {
    if (error instanceof UserFacingError) return { arrived: false, text: error.message };
    throw error;
  }
}

/** Switches the webhook on at the service; a refusal comes back as its message. */
export async function tryToSwitchOn(deps: ProbeDeps, hook: ServiceHook): Promise<{ on: boolean; text: string }> {
  try {
    const key = await openServerKey(deps, hook.guildId);
    const on = await switchWebhookOn(deps, hook, key);
    return { on, text: on ? 'switched on again' : 'the service says it is still off' };
  } catch (error) {
    if (error instanceof UserFacingError) return { on: false, text: error.message };
    throw error;
  }
}
