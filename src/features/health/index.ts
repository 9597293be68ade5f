/**
 * What other features and the shared commands may use of feed health: the alert settings (where /duty's coverage
 * alert goes), /status's lines, and /feed held.
 */
export { alertSettingsOn, type AlertSettingsStore } from './alert-settings.js';
export { showHeld, type FeedHeldDeps } from './commands/held.js';
export { describeHealth } from './describe-health.js';
export { describeStatus } from './describe-status.js';
export { readRecoveryReport } from './downtime-recovery.js';
export type { HealthDeps } from './feature.js';
