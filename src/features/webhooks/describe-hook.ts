import { relativeTime } from '../../discord/relative-time.js';
import type { HookActivity } from '../../store/hook-activity.js';
import type { StoredHook } from '../../store/hooks.js';
import { describeEvents } from '../../upstream/event-choices.js';
import { webhookName } from './find-webhook.js';

/**
 * One line about a webhook for /webhook list: id, events, on/off as far as known, last delivery and refused
 * deliveries (the intake's counts since this process started).
 */
export function describeHook(hook: StoredHook, activity: HookActivity): string {
  const { state, refused, lastRefusal } = activity;
  const onOff = state ? `${state.enabled ? 'on' : 'off'} (as of ${relativeTime(state.at)})` : 'on/off not known';
  const parts = [`\`${webhookName(hook)}\``, describeEvents(hook.events), onOff, describeLastDelivery(activity)];
  parts.push(
    refused === 0
      ? 'no refused deliveries'
      : `${refused} refused (last: ${(lastRefusal ?? 'unknown').replace(/_/g, ' ')})`,
  );
  return `• ${parts.join(' · ')}`;
}

/** "last delivery 3 minutes ago (modcall)", or that none came since the bot started. */
export function describeLastDelivery(activity: HookActivity): string {
  const { lastDeliveryAt, lastEvent } = activity;
  if (lastDeliveryAt === undefined) return 'no delivery since the bot started';
  return `last delivery ${relativeTime(lastDeliveryAt)}${lastEvent ? ` (${lastEvent})` : ''}`;
}
