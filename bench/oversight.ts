import type { BenchGroup } from './group.js';
import { EVIDENCE_FIGURES, measureEvidence } from './oversight-evidence.js';

/**
 * `npm run bench -- oversight`: what issue 46's features cost, each part in a file of its own (oversight-*.ts):
 * /case evidence's p99 in a guild of 1,000,000 cases on both engines.
 */
export const oversightGroup: BenchGroup = {
  name: 'oversight',
  figures: [...EVIDENCE_FIGURES],
  async run(figures) {
    await measureEvidence(figures);
  },
};
