import type { BenchGroup } from './group.js';
import { compareAck } from './intake-ack.js';
import { compareThroughput, pairedRatios } from './intake-throughput.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * Not part of `npm run bench` (run it with `npm run bench -- proposal`): the intake as it is, against the same
 * bot with the changes the benchmark report proposes, as prototypes swapped in at run time
 * (lib/target-server.ts): outbox writes group-committed by lib/group-commit-sqlite.ts (still synchronous=FULL,
 * still answering only after the fsync that holds the delivery), then also seen-id lookups from memory; and
 * against bare Express. Throughput as in the intake group, then answer times as in the ack group. It prints
 * numbers, no `bench` figure.
 */
const ROUNDS = roundCount(3);

export const proposalGroup: BenchGroup = {
  name: 'proposal',
  figures: [],
  optional: true,
  async run() {
    log('proposal: the real bot vs the same bot with the proposed changes (prototypes) vs bare Express');
    const throughput = await compareThroughput(['bot', 'bot-group-commit', 'bot-group-commit-memory-seen', 'express'], ROUNDS);
    const peer = throughput.get('express') ?? [];
    for (const kind of ['bot', 'bot-group-commit', 'bot-group-commit-memory-seen'] as const) {
      const ratios = pairedRatios(throughput.get(kind) ?? [], peer);
      log(`  ${kind}/express per round: ${formatList(ratios)} -> median ${formatNumber(median(ratios))}`);
    }
    for (const kind of ['bot-group-commit', 'bot-group-commit-memory-seen'] as const) {
      const gain = pairedRatios(throughput.get(kind) ?? [], throughput.get('bot') ?? []);
      log(`  ${kind}/bot per round: ${formatList(gain)} -> median ${formatNumber(median(gain))}`);
    }
    log('proposal: time to answer at a steady rate, the real bot vs the same bot with the prototypes');
    const ack = await compareAck(['bot', 'bot-group-commit', 'bot-group-commit-memory-seen'], ROUNDS);
    for (const [kind, { p50, p99 }] of ack) log(`  ${kind.padEnd(28)} median p50 ${formatNumber(p50)} ms, median p99 ${formatNumber(p99)} ms`);
  },
};
