/** What other features may use of the community record feature. */
export { describeCaseCounts, describeTotals } from './case-lookup.js';
export type { ChartDrawer } from './chart-renderer.js';
export { describeModcallCounts, formatHours, formatWait, LEADERBOARD_SHOWN, percentile } from './describe-stats.js';
export { dayLabel } from './hours-per-day.js';
