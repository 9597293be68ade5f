import type { HookActivityStore } from '../../store/hook-activity.js';
import type { ServiceClient } from '../../upstream/client.js';
import { callService } from '../../upstream/service-failure.js';
import type { ServiceHook } from './find-webhook.js';
import { readServiceReport } from './ping-result.js';

/**
 * Asks the service to switch the webhook back on and records what it said.
 * @returns whether the webhook is on now (a 2xx is the service's yes unless its answer says otherwise)
 * @throws UserFacingError when the service refuses
 */
export async function switchWebhookOn(
  deps: {
    service: Pick<ServiceClient, 'enableWebhook'>;
    activity: Pick<HookActivityStore, 'noteState'>;
    clock: () => number;
  },
  hook: ServiceHook,
  key: string,
): Promise<boolean> {
  const answer = await callService('switch the webhook on', () => deps.service.enableWebhook(key, hook.webhookId));
  const enabled = readServiceReport(answer).enabled ?? true;
  await deps.activity.noteState(hook.hookId, enabled, deps.clock());
  return enabled;
}
