import type { Figures } from './lib/report.js';

/** One benchmark group: `npm run bench -- <name>` (or one of its figure names) runs it alone. */
export interface BenchGroup {
  name: string;
  /** The `bench` figure names it prints. */
  figures: readonly string[];
  run(figures: Figures): Promise<void>;
}
