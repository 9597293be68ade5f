import type { HookActivityStore, HookOutcome } from '../../store/hook-activity.js';
import { waitForHookOutcome } from '../../store/hook-outcomes.js';
import type { StoreSignals } from '../../store/signals.js';
import type { ServiceClient } from '../../upstream/client.js';
import { PING_EVENT } from '../../upstream/schemas.js';
import { callService, saysDisabled } from '../../upstream/service-failure.js';
import type { ServiceHook } from './find-webhook.js';
import { readServiceReport, type ServiceReport } from './ping-result.js';

/**
 * Once the service has answered and says how its ping went, the intake has already seen it (the service
 * waits for our answer before giving its own); this short grace only absorbs scheduling.
 */
const ANSWERED_GRACE_MS = 250;

export interface PingDeps {
  signals: StoreSignals;
  service: Pick<ServiceClient, 'testWebhook'>;
  activity: Pick<HookActivityStore, 'noteState'>;
  clock: () => number;
  /** How long to wait for the ping at the intake when the service's answer does not say how it went. */
  pingTimeoutMs: number;
}

/** What a test ping showed: what the intake saw (if anything) and what the service said. */
export interface PingRun {
  outcome: HookOutcome | undefined;
  report: ServiceReport;
  elapsedMs: number;
}

/**
 * Asks the service to ping the webhook and waits for the ping at our own intake (whichever process it
 * reaches: the store's signals carry it), so a success proves the whole path: address, HTTPS, proxy, secret,
 * clock. What the service says about on/off is recorded.
 * @throws UserFacingError when the service refuses (a switched-off webhook says so in words)
 */
export async function pingWebhook(deps: PingDeps, hook: ServiceHook, key: string): Promise<PingRun> {
  const startedAt = deps.clock();
  // Listening starts before the request: the ping may arrive before the service answers us.
  const arrival = waitForHookOutcome(deps.signals, hook.hookId, isPingOrRefusal, deps.pingTimeoutMs);
  let saidOff = false;
  const answer = await callService(
    'ask the service for a test ping',
    () => deps.service.testWebhook(key, hook.webhookId),
    (error) => {
      if (!saysDisabled(error)) return undefined;
      saidOff = true;
      return `The service says webhook \`${hook.webhookId}\` is switched off: run /webhook enable, then test again.`;
    },
  ).catch(async (error: unknown) => {
    if (saidOff) await deps.activity.noteState(hook.hookId, false, deps.clock());
    throw error;
  });
  const report = readServiceReport(answer);
  if (report.enabled !== undefined) await deps.activity.noteState(hook.hookId, report.enabled, deps.clock());
  const outcome = report.delivered === undefined ? await arrival : await settleWithin(arrival, ANSWERED_GRACE_MS);
  return { outcome, report, elapsedMs: outcome ? outcome.at - startedAt : 0 };
}

/** The ping itself, or any refusal: a refused ping carries no event name we could check. */
function isPingOrRefusal(outcome: HookOutcome): boolean {
  return !outcome.ok || outcome.event === PING_EVENT;
}

/** The promise's value if it settles within `ms`, else undefined. */
async function settleWithin<T>(promise: Promise<T | undefined>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
