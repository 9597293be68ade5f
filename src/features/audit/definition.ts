import type { FeatureDefinition } from '../feature.js';
import { auditInteractions } from './commands/index.js';
import { createAuditFeature } from './feature.js';
import { auditModule } from './store/audit-module.js';

/** The audit log, as the features' list takes it: /audit, and its table. */
export const auditDefinition: FeatureDefinition<ReturnType<typeof createAuditFeature>> = {
  interactions: auditInteractions,
  storeModule: auditModule,
  create: (parts) => createAuditFeature(parts),
};
