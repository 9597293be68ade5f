import { relativeTime } from '../../discord/relative-time.js';
import type { HookActivity } from '../../store/hook-activity.js';
import type { StoredHook } from '../../store/hooks.js';
import { webhookName } from '../webhooks/index.js';
import type { Incident } from './incidents.js';
import type { Probe } from './probe-webhook.js';

/** While a webhook stays silent, it is tested at most this often. */
export const SILENCE_TEST_EVERY_MS = 30 * 60 * 1000;

/** When the webhook was last heard from: its last delivery or ping, or its registration. */
export function lastHeardAt(hook: StoredHook, activity: HookActivity): number {
  return Math.max(hook.createdAt, activity.lastDeliveryAt ?? 0);
}

/**
 * Whether a silent webhook is due a test ping: silent for the server's silence time, and not tested in the
 * last 30 minutes (an open silence incident remembers its last test in `updatedAt`, across restarts).
 */
export function silenceTestDue(
  heardAt: number,
  now: number,
  silenceMs: number,
  open: Pick<Incident, 'updatedAt'> | undefined,
): boolean {
  if (now - heardAt < silenceMs) return false;
  return open === undefined || now - open.updatedAt >= SILENCE_TEST_EVERY_MS;
}

/** The silence incident's detail: since when nothing came, and what the test ping showed. */
export function describeSilence(hook: StoredHook, heardAt: number, probe: Probe): string {
  return `Nothing from webhook \`${webhookName(hook)}\` since ${relativeTime(heardAt)}, and the service's test ping did not get through: ${probe.text}`;
}
