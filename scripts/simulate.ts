/**
 * `npm run simulate -- --url <webhook url> --secret <secret> [--event <name>|all] [--count N] [--rate R] [--bad]`:
 * signed sample deliveries to any webhook address, to check a deployment without waiting for a real event.
 */
import { runSimulation } from './simulate/run-simulation.js';
import { parseSimulateArgs, USAGE } from './simulate/simulate-args.js';

const parsed = parseSimulateArgs(process.argv.slice(2));
if (parsed.kind === 'help') {
  process.stdout.write(`${USAGE}\n`);
} else if (parsed.kind === 'error') {
  process.stderr.write(`simulate: ${parsed.message}\n\n${USAGE}\n`);
  process.exitCode = 2;
} else {
  try {
    process.exitCode = await runSimulation(parsed.options);
  } catch (error) {
    process.stderr.write(`simulate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
