import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runSimulation } from '../../scripts/simulate/run-simulation.js';
import type { SimulateOptions } from '../../scripts/simulate/simulate-args.js';
import { HOOK_SECRET, startIntakeHarness, type IntakeHarness } from '../helpers/intake-harness.js';

let h: IntakeHarness;
let printed: string[];

beforeEach(async () => {
  h = await startIntakeHarness();
  printed = [];
});

afterEach(async () => {
  await h.stop();
});

const options = (overrides: Partial<SimulateOptions> = {}): SimulateOptions => ({
  url: `${h.bot.http.url}/webhooks/${h.hookId}`,
  secret: HOOK_SECRET,
  event: 'all',
  count: undefined,
  rate: 1000,
  bad: false,
  ...overrides,
});
const simulate = (overrides: Partial<SimulateOptions> = {}) =>
  runSimulation(options(overrides), { print: (line) => printed.push(line), now: () => h.now.ms, seed: 3 });

describe('the delivery simulator against the real intake', () => {
  it('sends a whole signed session, each delivery accepted and kept once', async () => {
    expect(await simulate()).toBe(0);
    const lines = printed.filter((line) => /^\s+\d+\/\d+ /.test(line));
    expect(lines.length).toBeGreaterThanOrEqual(11);
    expect(lines.every((line) => / ok 204 in \d+ ms /.test(line))).toBe(true);
    expect(printed.at(-1)).toBe(`simulate: all ${lines.length} accepted`);
    expect(await h.bot.store.deliveries.countOpen()).toBe(lines.length);
    expect(printed.join('\n')).not.toContain(HOOK_SECRET);
    expect(printed.join('\n')).not.toContain(h.hookId);
  });

  it('reports refused deliveries and fails when the secret is wrong', async () => {
    expect(await simulate({ secret: 'not-the-secret', event: 'modcall', count: 2 })).toBe(1);
    expect(printed.filter((line) => line.includes('REFUSED 401 signature_mismatch'))).toHaveLength(2);
    expect(await h.bot.store.deliveries.countOpen()).toBe(0);
  });

  it('has every bad delivery refused with the expected status, with or without the secret', async () => {
    // Without the secret, the two cases that need a valid signature are left out.
    for (const [secret, count] of [
      [HOOK_SECRET, 11],
      [undefined, 9],
    ] as const) {
      printed = [];
      const code = await simulate({ bad: true, secret });
      expect(code, printed.join('\n')).toBe(0);
      const rows = printed.filter((line) => line.startsWith('  '));
      expect(rows).toHaveLength(count);
      for (const row of rows) expect(row).toMatch(/expect (\d{3}) (\w+)\s+got \1 \2\s+ok/);
    }
    expect(await h.bot.store.deliveries.countOpen()).toBe(0);
  });

  it('fails --bad when an endpoint accepts what it must refuse', async () => {
    // An endpoint that answers 204 to everything.
    const code = await runSimulation(options({ bad: true }), {
      print: (line) => printed.push(line),
      now: () => h.now.ms,
      post: () => Promise.resolve({ status: 204, code: undefined, failure: undefined, ms: 1 }),
    });
    expect(code).toBe(1);
    expect(printed.at(-1)).toBe('simulate: 11 of 11 not answered as expected');
  });
});
