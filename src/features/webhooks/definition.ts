import type { FeatureDefinition } from '../feature.js';
import { webhooksInteractions } from './commands/index.js';
import { createWebhooksFeature } from './feature.js';

/** The webhooks, as the features' list takes them: /setup and /webhook; no tables of their own. */
export const webhooksDefinition: FeatureDefinition<ReturnType<typeof createWebhooksFeature>> = {
  interactions: webhooksInteractions,
  create: (parts) => createWebhooksFeature(parts),
};
