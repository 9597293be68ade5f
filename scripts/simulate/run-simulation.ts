import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { badDeliveries } from './bad-deliveries.js';
import { describeEvent } from './describe-event.js';
import { postDelivery, signedHeaders, type DeliveryAnswer, type DeliveryRequest } from './post-delivery.js';
import { sampleEvents, storyLength } from './sample-events.js';
import type { SimulateOptions } from './simulate-args.js';

export interface SimulationDeps {
  /** Where lines go; default stdout. */
  print: (line: string) => void;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Sends one request; tests may count or slow them. */
  post: (request: DeliveryRequest) => Promise<DeliveryAnswer>;
  /** The first story's seed; default random, so two runs tell different stories. */
  seed?: number;
}

const defaultDeps: SimulationDeps = {
  print: (line) => process.stdout.write(`${line}\n`),
  now: Date.now,
  post: (request) => postDelivery(request),
};

/**
 * The address without most of its hookId: the unguessable part of a webhook address stays off screens and
 * out of pasted logs, while the host and the start of the id still say where deliveries went.
 */
export function maskUrl(url: string): string {
  const parsed = new URL(url);
  const segments = parsed.pathname.split('/');
  const last = segments.at(-1) ?? '';
  if (last.length >= 8) segments[segments.length - 1] = `${last.slice(0, 4)}…`;
  return `${parsed.origin}${segments.join('/')}`;
}

function describeAnswer(answer: DeliveryAnswer): string {
  if (answer.status === undefined) return `no answer (${answer.failure ?? 'unknown'})`;
  return answer.code === undefined ? String(answer.status) : `${answer.status} ${answer.code}`;
}

const ms = (value: number) => `${Math.round(value)} ms`;

/** Waits until the `index`-th send is due at `rate` per second from `start`. */
async function pace(start: number, index: number, rate: number): Promise<void> {
  const due = start + (index * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await sleep(wait);
}

/** Sends good deliveries; every answer must be 2xx. Returns the exit code. */
async function sendGood(options: SimulateOptions, secret: string, deps: SimulationDeps): Promise<number> {
  const seed = deps.seed ?? randomInt(1, 2 ** 31 - 1);
  const count = options.count ?? (options.event === 'all' ? storyLength(seed) : 1);
  const events = sampleEvents({ event: options.event, count, now: deps.now(), seed });
  deps.print(
    `simulate: ${events.length} signed deliver${events.length === 1 ? 'y' : 'ies'} to ${maskUrl(options.url)}, ${options.rate}/s`,
  );
  const width = String(events.length).length;
  let accepted = 0;
  const start = performance.now();
  for (const [index, event] of events.entries()) {
    await pace(start, index, options.rate);
    const body = JSON.stringify(event);
    const headers = signedHeaders(event.event, body, secret, Math.floor(deps.now() / 1000));
    const answer = await deps.post({ url: options.url, headers, body });
    const ok = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
    if (ok) accepted += 1;
    deps.print(
      `  ${String(index + 1).padStart(width)}/${events.length}  ${event.event.padEnd(15)}  ${event.id}  ${ok ? 'ok' : 'REFUSED'} ${describeAnswer(answer)} in ${ms(answer.ms)}  ${describeEvent(event)}`,
    );
  }
  const refused = events.length - accepted;
  deps.print(
    refused === 0
      ? `simulate: all ${events.length} accepted`
      : `simulate: ${refused} of ${events.length} not accepted (401 signature_mismatch: wrong secret; 404 unknown_hook: wrong address)`,
  );
  return refused === 0 ? 0 : 1;
}

/** Sends deliveries that must be refused; every answer must have the expected status. Returns the exit code. */
async function sendBad(options: SimulateOptions, deps: SimulationDeps): Promise<number> {
  const [sample] = sampleEvents({
    event: 'modcall',
    count: 1,
    now: deps.now(),
    seed: deps.seed ?? randomInt(1, 2 ** 31 - 1),
  });
  if (!sample) throw new Error('the story generator made no modcall');
  const cases = badDeliveries({ url: options.url, secret: options.secret, sample, now: deps.now() });
  deps.print(
    `simulate: ${cases.length} deliveries that must be refused, to ${maskUrl(options.url)}, ${options.rate}/s`,
  );
  if (options.secret === undefined) {
    deps.print('simulate: no secret given: the signed-but-malformed cases (not JSON, not an envelope) are left out');
  }
  const nameWidth = Math.max(...cases.map((item) => item.name.length));
  const whatWidth = Math.max(...cases.map((item) => item.what.length));
  let unexpected = 0;
  const start = performance.now();
  for (const [index, item] of cases.entries()) {
    await pace(start, index, options.rate);
    const answer = await deps.post(item.request);
    const ok = answer.status === item.expectedStatus;
    if (!ok) unexpected += 1;
    const expected = `expect ${item.expectedStatus} ${item.expectedCode}`;
    deps.print(
      `  ${item.name.padEnd(nameWidth)}  ${item.what.padEnd(whatWidth)}  ${expected.padEnd(30)}  got ${describeAnswer(answer).padEnd(30)}  ${ok ? 'ok' : 'UNEXPECTED'}  ${ms(answer.ms)}`,
    );
  }
  deps.print(
    unexpected === 0
      ? `simulate: all ${cases.length} answered as expected`
      : `simulate: ${unexpected} of ${cases.length} not answered as expected`,
  );
  return unexpected === 0 ? 0 : 1;
}

/** Runs `npm run simulate` with parsed options; resolves with the process exit code. Never prints the secret. */
export async function runSimulation(
  options: SimulateOptions,
  overrides: Partial<SimulationDeps> = {},
): Promise<number> {
  const deps = { ...defaultDeps, ...overrides };
  if (options.bad) return sendBad(options, deps);
  if (options.secret === undefined) throw new Error('a secret is required for signed deliveries');
  return sendGood(options, options.secret, deps);
}
