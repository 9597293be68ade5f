import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

import { backlogGroup } from './backlog.js';
import { feedDrainGroup } from './feed-drain.js';
import { feedLatencyGroup } from './feed-latency.js';
import { feedMemoryGroup } from './feed-memory.js';
import type { BenchGroup } from './group.js';
import { guildsSpreadGroup } from './guilds-spread.js';
import { guildsGroup } from './guilds.js';
import { housekeepingGroup } from './housekeeping.js';
import { intakeAck } from './intake-ack.js';
import { intakeGroup } from './intake.js';
import { Figures, log } from './lib/report.js';
import { liveGroup } from './live.js';
import { oversightGroup } from './oversight.js';
import { recordChartGroup } from './record-chart.js';
import { recordExportGroup } from './record-export.js';
import { recordGroup } from './record.js';
import { scaleGroup } from './scale.js';
import { staffGroup } from './staff.js';
import { storeSync } from './store-sync.js';
import { verifyGroup } from './verify.js';

/**
 * `npm run bench` runs every group; `npm run bench -- <name>` runs the groups named (by group name or by one of
 * their figure names). Every figure is printed at the end as `bench <name> <value> <unit>`.
 * BENCH_ROUNDS=<n> overrides every group's round count (for a quick look or a profile).
 */
const GROUPS: readonly BenchGroup[] = [
  verifyGroup,
  storeSync,
  intakeGroup,
  intakeAck,
  feedDrainGroup,
  feedLatencyGroup,
  feedMemoryGroup,
  backlogGroup,
  housekeepingGroup,
  recordGroup,
  scaleGroup,
  recordExportGroup,
  recordChartGroup,
  liveGroup,
  oversightGroup,
  staffGroup,
  guildsGroup,
  guildsSpreadGroup,
];

function select(names: readonly string[]): BenchGroup[] {
  if (names.length === 0) return [...GROUPS];
  return names.map((name) => {
    const group = GROUPS.find((candidate) => candidate.name === name || candidate.figures.includes(name));
    if (!group) {
      const known = GROUPS.flatMap((candidate) => [candidate.name, ...candidate.figures]).join(', ');
      process.stderr.write(`unknown benchmark "${name}"; known: ${known}\n`);
      process.exit(2);
    }
    return group;
  });
}

/** Load average and, where Linux reports it, the share of time runnable tasks waited for a CPU (PSI, last 10 s). */
function machineLoad(): string {
  let pressure = '';
  try {
    const some = /some avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    if (some) pressure = `, CPU pressure ${some[1] ?? '?'}%`;
  } catch {
    // Not Linux, or PSI disabled: the load average alone.
  }
  return `load average ${loadavg()[0]?.toFixed(2) ?? '?'} on ${cpus().length} CPUs${pressure}`;
}

const figures = new Figures();
let failed = false;
const started = performance.now();
for (const group of new Set(select(process.argv.slice(2)))) {
  // Other work on the machine skews every figure; the load average says how quiet it was.
  log(`== ${group.name} (${machineLoad()})`);
  const groupStarted = performance.now();
  try {
    await group.run(figures);
  } catch (error) {
    failed = true;
    process.stderr.write(
      `benchmark ${group.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  log(
    `   (${group.name} took ${((performance.now() - groupStarted) / 1000).toFixed(0)} s; after it: ${machineLoad()})`,
  );
}
log(`(benchmarks took ${((performance.now() - started) / 1000).toFixed(0)} s on ${process.version})`);
for (const line of figures.lines()) log(line);
process.exitCode = failed ? 1 : 0;
