/**
 * `npm run demo`: the offline demo (see demo/start-demo.ts). One process, nothing but 127.0.0.1, no
 * credentials; Ctrl-C (SIGINT) or SIGTERM stops everything and exits 0, at any moment.
 */
import type { RunningDemo } from '../demo/start-demo.js';

const say = (line: string) => process.stdout.write(`demo: ${line}\n`);

let demo: RunningDemo | undefined;
let stopping = false;
const shutdown = (signal: NodeJS.Signals) => {
  if (stopping) {
    // A second Ctrl-C: the user does not want to wait for a clean stop.
    process.exit(130);
  }
  stopping = true;
  say(`${signal}: stopping…`);
  // Not started yet: the start below sees `stopping` and stops what it started.
  if (!demo) return;
  demo.stop().then(
    () => {
      say('stopped');
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`demo: stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
};
// Before anything is loaded: the bot, discord.js and the fakes take a moment to import.
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

const { DEMO_USAGE, parseDemoArgs } = await import('../demo/demo-args.js');
const parsed = parseDemoArgs(process.argv.slice(2));
if (parsed.kind === 'help') {
  process.stdout.write(`${DEMO_USAGE}\n`);
  process.exit(0);
}
if (parsed.kind === 'error') {
  process.stderr.write(`demo: ${parsed.message}\n\n${DEMO_USAGE}\n`);
  process.exit(2);
}
const { args } = parsed;

try {
  const { startDemo } = await import('../demo/start-demo.js');
  if (stopping) {
    say('stopped');
    process.exit(0);
  }
  demo = await startDemo({
    intervalMs: args.intervalMs,
    previewPort: args.previewPort,
    logLevel: args.logLevel,
    say,
    ...(args.stateDir === undefined ? {} : { stateDir: args.stateDir }),
  });
  if (stopping) {
    await demo.stop();
    say('stopped');
    process.exit(0);
  }
} catch (error) {
  if (stopping) {
    say('stopped');
    process.exit(0);
  }
  process.stderr.write(
    `demo: could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
