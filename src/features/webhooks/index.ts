/**
 * What other features and the shared commands may use of the webhooks feature: finding a guild's webhook, its
 * server key, a test ping and switching a webhook back on (the health monitor's probe and Re-enable), how a
 * webhook is described, and /status's line on the sealed keys.
 */
export { describeLastDelivery } from './describe-hook.js';
export { describeSealing } from './describe-sealing.js';
export { switchWebhookOn } from './enable-webhook.js';
export { requireServiceId, webhookName, type ServiceHook } from './find-webhook.js';
export { describePing } from './ping-result.js';
export { pingWebhook, type PingDeps, type PingRun } from './ping-webhook.js';
export { openServerKey, type ServerKeyDeps } from './server-key.js';
export type { WebhooksDeps } from './feature.js';
