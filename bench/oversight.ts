import type { BenchGroup } from './group.js';
import { measureGuardCost } from './oversight-guard.js';

/** The oversight features of issue 46: the conduct guard's cost to the record's writer (oversight-guard.ts). */
export const oversightGroup: BenchGroup = {
  name: 'oversight',
  figures: ['oversight.guard_cost_ratio'],
  async run(figures) {
    await measureGuardCost(figures);
  },
};
