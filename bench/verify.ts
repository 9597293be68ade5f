import { createSecretKey } from 'node:crypto';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import Stripe from 'stripe';

import { verifyDelivery } from '../src/upstream/signature.js';
import type { BenchGroup } from './group.js';
import { BENCH_SECRET, makeDeliveryBody, makeDeliveryId, signHex } from './lib/delivery.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';
import { timeAwaited, timeSync } from './lib/timing.js';

/**
 * verify.vs_octokit, verify.vs_stripe: the cost of checking one signed 1 KB delivery with our verifyDelivery
 * against @octokit/webhooks-methods `verify` and stripe's `webhooks.constructEvent`. All three get the same
 * HMAC-SHA256 over the same text `${t}.${body}` with the same secret, each in its own header format.
 *
 * Fairness:
 * - octokit's verify is async. The figures time every candidate in the same loop shape, `await op()` per call
 *   (a sync result costs one microtask there). The sync calls are also timed in a plain loop, for reference.
 * - constructEvent also JSON-parses the payload; its figure compares it with verifyDelivery followed by the
 *   JSON.parse our intake does next (like for like). verifyDelivery alone is printed too.
 * - octokit takes a string and has no timestamp: it gets the signed text `${t}.${body}` prebuilt (its best case);
 *   ours gets the raw Buffer the intake has and the HMAC key the intake keeps per hook (SigningKeys, made once),
 *   and also checks the timestamp and the header format.
 * Rounds alternate the order of the candidates; the figure is the median of the per-round ratios.
 */
// Many short rounds, candidates alternating: on a shared machine a noise burst then spoils a few rounds of
// every candidate alike instead of one long round of one candidate; the median ratio ignores those rounds.
const ROUNDS = roundCount(41);
const ITERATIONS = 2_000;

interface Candidate {
  label: string;
  /** Sync candidates also get a plain-loop timing. */
  sync: boolean;
  op: () => unknown;
}

export const verifyGroup: BenchGroup = {
  name: 'verify',
  figures: ['verify.vs_octokit', 'verify.vs_stripe'],
  async run(figures) {
    const text = makeDeliveryBody(makeDeliveryId('0badc0de', 1));
    const body = Buffer.from(text);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const hex = signHex(BENCH_SECRET, timestamp, body);
    const signedText = `${timestamp}.${text}`;
    const ourHeader = `sha256=${hex}`;
    const stripeHeader = `t=${timestamp},v1=${hex}`;
    const stripe = new Stripe('sk_test_bench_not_used_for_requests');

    // As the intake holds it: imported once per hook (src/intake/signing-keys.ts), not per delivery.
    const signingKey = createSecretKey(Buffer.from(BENCH_SECRET, 'utf8'));
    const ours = () => {
      const verdict = verifyDelivery({
        secret: signingKey,
        rawBody: body,
        signatureHeader: ourHeader,
        timestampHeader: timestamp,
        now: Date.now(),
      });
      if (!verdict.ok) throw new Error(`verifyDelivery refused the bench delivery: ${verdict.reason}`);
      return verdict;
    };
    const candidates: Candidate[] = [
      { label: 'ours: verifyDelivery', sync: true, op: ours },
      {
        label: 'ours: verifyDelivery + JSON.parse',
        sync: true,
        op: () => (ours(), JSON.parse(body.toString('utf8')) as unknown),
      },
      {
        label: 'octokit: verify',
        sync: false,
        op: async () => {
          if (!(await octokitVerify(BENCH_SECRET, signedText, ourHeader)))
            throw new Error('octokit refused the bench delivery');
        },
      },
      {
        label: 'stripe: webhooks.constructEvent',
        sync: true,
        op: () => stripe.webhooks.constructEvent(body, stripeHeader, BENCH_SECRET),
      },
    ];

    // Warm-up: every candidate, both loop shapes, until the JIT has settled.
    for (const candidate of candidates) {
      await timeAwaited(candidate.op, ITERATIONS);
      if (candidate.sync) timeSync(candidate.op, ITERATIONS);
    }
    const awaited = new Map<string, number[]>(candidates.map((candidate) => [candidate.label, []]));
    const plain = new Map<string, number[]>(candidates.map((candidate) => [candidate.label, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? candidates : [...candidates].reverse();
      for (const candidate of order) {
        awaited.get(candidate.label)?.push(await timeAwaited(candidate.op, ITERATIONS));
        if (candidate.sync) plain.get(candidate.label)?.push(timeSync(candidate.op, ITERATIONS));
      }
    }

    log(`verify: 1 KB body, ${ROUNDS} rounds of ${ITERATIONS} calls per candidate, µs per call`);
    for (const candidate of candidates) {
      const a = awaited.get(candidate.label) ?? [];
      const p = plain.get(candidate.label) ?? [];
      log(
        `  ${candidate.label.padEnd(36)} awaited ${formatNumber(median(a)).padStart(6)} µs  (rounds: ${formatList(a)})`,
      );
      if (p.length > 0)
        log(`  ${''.padEnd(36)} plain   ${formatNumber(median(p)).padStart(6)} µs  (rounds: ${formatList(p)})`);
    }
    const ratios = (ourLabel: string, peerLabel: string, times: Map<string, number[]>) => {
      const mine = times.get(ourLabel) ?? [];
      const theirs = times.get(peerLabel) ?? [];
      return mine.map((value, i) => value / (theirs[i] ?? Number.NaN));
    };
    const vsOctokit = ratios('ours: verifyDelivery', 'octokit: verify', awaited);
    const vsStripe = ratios('ours: verifyDelivery + JSON.parse', 'stripe: webhooks.constructEvent', awaited);
    const vsStripeVerifyOnly = ratios('ours: verifyDelivery', 'stripe: webhooks.constructEvent', awaited);
    const vsStripePlain = ratios('ours: verifyDelivery + JSON.parse', 'stripe: webhooks.constructEvent', plain);
    log(
      `  ours/octokit (both awaited):                 ${formatList(vsOctokit)} -> median ${formatNumber(median(vsOctokit))} (target <= 1)`,
    );
    log(
      `  ours+parse/stripe (both awaited):            ${formatList(vsStripe)} -> median ${formatNumber(median(vsStripe))} (target <= 1)`,
    );
    log(
      `  ours+parse/stripe (both plain loop):         ${formatList(vsStripePlain)} -> median ${formatNumber(median(vsStripePlain))}`,
    );
    log(
      `  ours (verify only)/stripe (verify + parse):  ${formatList(vsStripeVerifyOnly)} -> median ${formatNumber(median(vsStripeVerifyOnly))} (flatters us)`,
    );
    figures.add('verify.vs_octokit', median(vsOctokit), 'x');
    figures.add('verify.vs_stripe', median(vsStripe), 'x');
  },
};
