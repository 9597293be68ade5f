/** What other features may use of the conduct guard: nothing yet but its rules' names (the demo, docs). */
export { RULE_NAMES, type RuleName } from './rules.js';
