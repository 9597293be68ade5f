import type { FeatureDefinition } from '../feature.js';
import type { WebhooksDeps } from '../webhooks/index.js';
import { healthInteractions } from './commands/index.js';
import { createHealthFeature, type HealthTimings } from './feature.js';

/** What feed health needs of the others: the webhooks' deps (an alert's Re-enable and Send test act on one). */
export interface HealthNeeds {
  webhooks: WebhooksDeps;
  timings: HealthTimings | undefined;
}

/** Feed health, as the features' list takes it: /alerts, the alerts' and /feed held's buttons. */
export const healthDefinition: FeatureDefinition<ReturnType<typeof createHealthFeature>, HealthNeeds> = {
  interactions: healthInteractions,
  create: (parts, { webhooks, timings }) => createHealthFeature(parts, webhooks, timings),
};
