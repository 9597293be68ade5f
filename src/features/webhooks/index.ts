/**
 * What other features may use of the webhooks feature: finding a guild's webhook, its server key, a test ping
 * and switching a webhook back on (the health monitor's probe and Re-enable), and how a webhook is described.
 */
export { describeLastDelivery } from './describe-hook.js';
export { switchWebhookOn } from './enable-webhook.js';
export { requireServiceId, webhookName, type ServiceHook } from './find-webhook.js';
export { describePing } from './ping-result.js';
export { pingWebhook, type PingDeps } from './ping-webhook.js';
export { openServerKey, type ServerKeyDeps } from './server-key.js';
