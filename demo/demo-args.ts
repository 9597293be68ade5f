import { parseArgs } from 'node:util';

export interface DemoArgs {
  intervalMs: number;
  stateDir: string | undefined;
  previewPort: number;
  logLevel: string;
}

export type ParsedDemoArgs = { kind: 'run'; args: DemoArgs } | { kind: 'help' } | { kind: 'error'; message: string };

/** A readable pace: one event every 1.8 s. */
export const DEFAULT_INTERVAL_MS = 1_800;
/** `--fast`, for tests: the whole story in a second or two. */
export const FAST_INTERVAL_MS = 100;
export const DEFAULT_PREVIEW_PORT = 5173;

export const DEMO_USAGE = `Usage: npm run demo [-- options]

The whole bridge on this machine, offline, without a Discord token: a fake game service, a fake Discord and
the real bot. A guild is set up with the admin's slash commands, then a game session plays until Ctrl-C.

Options:
  --fast               One event every ${FAST_INTERVAL_MS} ms instead of every ${DEFAULT_INTERVAL_MS / 1000} s.
  --interval <ms>      Pause between events.
  --port <port>        Port of the preview page on 127.0.0.1 (default ${DEFAULT_PREVIEW_PORT}; 0: any free port).
  --state-dir <dir>    Keep the store there, and write webhook-url and webhook-secret for npm run simulate.
                       Default: a temporary folder, removed at the end.
  --verbose            Show the bot's info logs too (default: warnings and errors only).
  -h, --help           Show this help.`;

/** Reads the demo's command line with node:util parseArgs. */
export function parseDemoArgs(argv: readonly string[]): ParsedDemoArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        fast: { type: 'boolean' },
        interval: { type: 'string' },
        port: { type: 'string' },
        'state-dir': { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };
  let intervalMs = values.fast ? FAST_INTERVAL_MS : DEFAULT_INTERVAL_MS;
  if (values.interval !== undefined) {
    intervalMs = Number(values.interval);
    if (!/^[0-9]+$/.test(values.interval) || intervalMs < 10 || intervalMs > 600_000) {
      return { kind: 'error', message: '--interval must be a whole number of milliseconds from 10 to 600000' };
    }
  }
  let previewPort = DEFAULT_PREVIEW_PORT;
  if (values.port !== undefined) {
    previewPort = Number(values.port);
    if (!/^[0-9]+$/.test(values.port) || previewPort > 65_535)
      return { kind: 'error', message: '--port must be a port number (0 for any free port)' };
  }
  return {
    kind: 'run',
    args: { intervalMs, stateDir: values['state-dir'], previewPort, logLevel: values.verbose ? 'info' : 'warn' },
  };
}
