/** What other features may use of the community record feature. */
export { describeCaseCounts } from './case-lookup.js';
