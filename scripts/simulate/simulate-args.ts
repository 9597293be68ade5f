import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { EVENT_NAMES, isEventName, type EventName } from '../../src/upstream/schemas.js';

/** What `npm run simulate` was asked to do. */
export interface SimulateOptions {
  url: string;
  /** Undefined only with `bad` (every bad delivery is refused whatever the secret). */
  secret: string | undefined;
  event: EventName | 'all';
  /** Undefined: one whole story for `all`, else 1. */
  count: number | undefined;
  /** Deliveries per second. */
  rate: number;
  bad: boolean;
}

export type SimulateArgs =
  { kind: 'run'; options: SimulateOptions } | { kind: 'help' } | { kind: 'error'; message: string };

export const DEFAULT_RATE = 2;
const MAX_COUNT = 10_000;
const MAX_RATE = 1_000;

export const USAGE = `Usage: npm run simulate -- --url <webhook url> --secret <secret> [options]

Sends correctly signed sample deliveries (a realistic session: shifts, cases, a modcall...) to a webhook
address, each with a new delivery id, and prints how each was answered and how long it took.

Options:
  --url <url>           The webhook address: PUBLIC_URL/webhooks/<id> (https, or http on a local machine).
  --secret <secret>     The webhook's secret. Or --secret-file <file> (its first line), or the environment
                        variable WEBHOOK_SECRET: both keep it out of the process list and shell history.
  --event <name|all>    One event, or all (default all): ${EVENT_NAMES.slice(0, 4).join(', ')},
                        ${EVENT_NAMES.slice(4).join(', ')}.
  --count <n>           How many deliveries (default: one whole session for all, 1 for one event).
  --rate <r>            Deliveries per second (default ${DEFAULT_RATE}).
  --bad                 Send deliveries that must be refused instead (unsigned, stale, tampered, wrong secret,
                        malformed...), print each answer next to the expected status, and exit 1 if any
                        answer differs. The secret is optional here.
  -h, --help            Show this help.

Exit code: 0 when every answer was the expected one, 1 otherwise, 2 for wrong arguments.`;

function positiveNumber(
  text: string | undefined,
  name: string,
  max: number,
  integer: boolean,
): number | string | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (
    !/^[0-9]+(\.[0-9]+)?$/.test(text.trim()) ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (integer && !Number.isInteger(value))
  ) {
    return `--${name} must be a ${integer ? 'whole ' : ''}number above 0`;
  }
  if (value > max) return `--${name} must be at most ${max}`;
  return value;
}

function readSecretFile(path: string): string | { error: string } {
  try {
    return readFileSync(path, 'utf8').split(/\r?\n/)[0]?.trim() ?? '';
  } catch (error) {
    // The path is the user's; the content is never shown.
    const code = (error as { code?: unknown }).code;
    return { error: `--secret-file: cannot read ${path}${typeof code === 'string' ? ` (${code})` : ''}` };
  }
}

/**
 * Reads the command line (node:util parseArgs, strict). Problems come back as one message for the usage text;
 * no message ever contains the secret.
 */
export function parseSimulateArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): SimulateArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        secret: { type: 'string' },
        'secret-file': { type: 'string' },
        event: { type: 'string' },
        count: { type: 'string' },
        rate: { type: 'string' },
        bad: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // A stray positional may be half of a secret typed with a space: name the problem, not the text.
    if ((error as { code?: unknown }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      return {
        kind: 'error',
        message: 'unexpected argument: options take the form --name value (quote values with spaces)',
      };
    }
    // Otherwise parseArgs names the option, never its value.
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };

  if (values.url === undefined)
    return {
      kind: 'error',
      message: '--url is required: the webhook address, e.g. https://bot.example.com/webhooks/<id>',
    };
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    return { kind: 'error', message: '--url must be an http(s) URL, e.g. https://bot.example.com/webhooks/<id>' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { kind: 'error', message: '--url must be an http(s) URL' };

  if (values.secret !== undefined && values['secret-file'] !== undefined) {
    return { kind: 'error', message: 'give --secret or --secret-file, not both' };
  }
  let secret = values.secret;
  if (values['secret-file'] !== undefined) {
    const read = readSecretFile(values['secret-file']);
    if (typeof read !== 'string') return { kind: 'error', message: read.error };
    secret = read;
  }
  secret ??= env.WEBHOOK_SECRET;
  if (secret === '') secret = undefined;
  const bad = values.bad === true;
  if (secret === undefined && !bad) {
    return {
      kind: 'error',
      message:
        '--secret is required (or --secret-file, or WEBHOOK_SECRET): the webhook secret the deliveries are signed with',
    };
  }

  const event = values.event ?? 'all';
  if (event !== 'all' && !isEventName(event)) {
    return { kind: 'error', message: `--event must be one of ${EVENT_NAMES.join(', ')} or all` };
  }
  const count = positiveNumber(values.count, 'count', MAX_COUNT, true);
  if (typeof count === 'string') return { kind: 'error', message: count };
  const rate = positiveNumber(values.rate, 'rate', MAX_RATE, false);
  if (typeof rate === 'string') return { kind: 'error', message: rate };
  if (bad && (values.count !== undefined || values.event !== undefined)) {
    return { kind: 'error', message: '--bad sends its own fixed set: leave out --event and --count' };
  }

  return { kind: 'run', options: { url: url.href, secret, event, count, rate: rate ?? DEFAULT_RATE, bad } };
}
