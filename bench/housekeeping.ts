import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIEmbed } from 'discord.js';

import { createLogger } from '../src/base/logger.js';
import { RUNTIME_TIMERS } from '../src/base/timers.js';
import { CardDocuments } from '../src/features/cards/card-documents.js';
import type { ModcallCard } from '../src/features/cards/modcall-card.js';
import { ModcallEscalator } from '../src/features/cards/modcall-escalator.js';
import { STORE_MODULES } from '../src/features/index.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../src/store/store.js';
import type { BenchGroup } from './group.js';
import { watchLoopGaps } from './lib/loop-gaps.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * What the bot's housekeeping costs the main thread, on the bot's own SQLite store (openSqliteStore: the engine
 * whose statements run on the main thread):
 *
 * - housekeeping.escalator_tick_ms: wall time of one modcall escalator check (ModcallEscalator.check, what its
 *   timer runs every 15 s) with 200,000 modcall cards stored (a day of them: most claimed or resolved, some open)
 *   and 6 due: 5 new cards it gives their escalation time and 1 it escalates (to a poster that answers at once).
 *   Limit 5 ms.
 * - housekeeping.sweep_block_ms: the longest the main thread is blocked (longest gap between two turns of the
 *   event loop) while the hourly card sweep (CardDocuments.sweep) deletes 150,000 followed cards and their 150,000
 *   messages' embeds older than 30 days, 1,000 newer ones of each staying. Limit 50 ms.
 *
 * Each is printed with its limit and its ratio to it. The raw values per round come first, and the old way's cost
 * for scale: reading and parsing every stored modcall card (what each check used to do).
 */
const TICK_ROUNDS = roundCount(21);
const SWEEP_ROUNDS = roundCount(3);
const TICK_LIMIT_MS = 5;
const SWEEP_LIMIT_MS = 50;

const STORED_MODCALLS = 200_000;
const OPEN_SHARE = 0.05;
const GUILDS = 200;
const NEW_PER_TICK = 5;
const OLD_CARDS = 150_000;
const NEW_CARDS = 1_000;
/** Writes queued together while seeding: one group commit each. */
const SEED_CHUNK = 5_000;

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const CARDS_FOLLOWED_MS = 30 * DAY;

const silent = createLogger('silent');

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function tempStore(): { store: Store; remove: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-housekeeping-'));
  const store = openSqliteStore(join(dir, 'store.sqlite'), Date.now, { modules: STORE_MODULES });
  return {
    store,
    remove: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `write(i)` for 0..count-1, a chunk at a time (one group commit per chunk). */
async function seed(count: number, write: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += SEED_CHUNK) {
    const end = Math.min(count, start + SEED_CHUNK);
    await Promise.all(Array.from({ length: end - start }, (_, i) => write(start + i)));
  }
}

function modcall(
  guildId: string,
  messageId: string,
  postedAt: number,
  state: 'open' | 'claimed' | 'resolved',
): ModcallCard {
  return {
    guildId,
    channelId: `modcalls-${guildId}`,
    messageId,
    server: '4821337',
    caller: { robloxId: messageId, name: `caller ${messageId}` },
    calls: [{ deliveryId: `call-${messageId}`, at: postedAt }],
    postedAt,
    pingRoleId: `mods-${guildId}`,
    claimedBy: state === 'open' ? null : 'moderator',
    claimedAt: state === 'open' ? null : postedAt + 60_000,
    resolvedBy: state === 'resolved' ? 'moderator' : null,
    resolvedAt: state === 'resolved' ? postedAt + 120_000 : null,
    escalatedAt: null,
  };
}

interface TickRun {
  ticks: number[];
  /** The process's CPU time over each of those checks (main thread, as nothing else runs here). */
  cpu: number[];
  idle: number[];
  scanMs: number;
}

async function measureEscalatorTicks(): Promise<TickRun> {
  const { store, remove } = tempStore();
  try {
    let now = Date.UTC(2026, 10, 25, 12);
    const cards = new CardDocuments(store.documents);
    const started = performance.now();
    await seed(GUILDS, (g) => cards.saveEscalation(`g${g}`, { afterMinutes: 5, roleId: `leads-g${g}` }));
    // Where the new cards of the checks below come: none of them escalates while the checks run.
    await cards.saveEscalation('g-new', { afterMinutes: 60, roleId: 'leads-g-new' });
    await seed(STORED_MODCALLS, (i) => {
      const guildId = `g${i % GUILDS}`;
      // Posted over the last day, up to an hour ago: none falls due while the checks below run.
      const postedAt = now - HOUR - Math.floor((i / STORED_MODCALLS) * 22 * HOUR);
      const state = i % Math.round(1 / OPEN_SHARE) === 0 ? 'open' : i % 2 === 0 ? 'claimed' : 'resolved';
      const card = modcall(guildId, `m${i}`, postedAt, state);
      // An open card the escalator has seen: escalated, or never to be (its server had no escalation then).
      const escalateAt = postedAt + 5 * 60_000;
      const seen = i % 2 === 0 ? { ...card, escalateAt, escalatedAt: escalateAt } : { ...card, escalateAt: null };
      return cards.updateModcall(guildId, `m${i}`, () => (state === 'open' ? seen : card));
    });
    log(
      `  seeded ${STORED_MODCALLS} modcall cards over ${GUILDS} servers in ${formatNumber((performance.now() - started) / 1000)} s`,
    );

    const posts: string[] = [];
    const escalator = new ModcallEscalator({
      documents: cards,
      poster: {
        post: (channelId) => Promise.resolve(String(posts.push(channelId))),
        edit: () => Promise.resolve('edited'),
      },
      clock: () => now,
      timers: RUNTIME_TIMERS,
      logger: silent,
    });
    await escalator.check();
    const run: TickRun = { ticks: [], cpu: [], idle: [], scanMs: 0 };
    for (let tick = 0; tick < TICK_ROUNDS; tick += 1) {
      now += 15_000;
      for (let n = 0; n < NEW_PER_TICK; n += 1) {
        const messageId = `new-${tick}-${n}`;
        await cards.updateModcall('g-new', messageId, () => modcall('g-new', messageId, now, 'open'));
      }
      await cards.updateModcall('g1', `due-${tick}`, () => ({
        ...modcall('g1', `due-${tick}`, now - 5 * 60_000, 'open'),
        escalateAt: now,
      }));
      const before = posts.length;
      const cpu = process.cpuUsage();
      const start = performance.now();
      await escalator.check();
      run.ticks.push(performance.now() - start);
      run.cpu.push(cpuMs(process.cpuUsage(cpu)));
      if (posts.length !== before + 1) throw new Error(`tick ${tick}: ${posts.length - before} escalations, not 1`);
      now += 1_000;
      const idleStart = performance.now();
      await escalator.check();
      run.idle.push(performance.now() - idleStart);
    }
    const scanStart = performance.now();
    const all = await store.documents.list('modcall_card');
    run.scanMs = performance.now() - scanStart;
    if (all.length < STORED_MODCALLS) throw new Error(`only ${all.length} modcall cards stored`);
    return run;
  } finally {
    await remove();
  }
}

/** A case card's embeds, about the size the bot posts (three to a message). */
function caseEmbeds(i: number): APIEmbed[] {
  return Array.from({ length: 3 }, (_, k) => ({
    title: `Case #${i * 3 + k} · Ban`,
    description: `Reason: ${'exploiting in the main area, warned twice before '.repeat(3)}`,
    color: 0xed4245,
    fields: [
      { name: 'Player', value: `Player${i} (\`${1_000_000 + i}\`)`, inline: true },
      { name: 'Moderator', value: `<@${200_000_000_000_000_000 + i}>`, inline: true },
      { name: 'Server', value: 'Main server (4821337)', inline: true },
    ],
    footer: { text: `case ${i * 3 + k}` },
    timestamp: new Date(Date.UTC(2026, 9, 1)).toISOString(),
  }));
}

interface SweepRun {
  blockMs: number;
  wallMs: number;
}

async function measureSweep(round: number): Promise<SweepRun> {
  const { store, remove } = tempStore();
  try {
    const now = Date.UTC(2026, 10, 25, 12);
    const cards = new CardDocuments(store.documents);
    const started = performance.now();
    const save = async (i: number, postedAt: number) => {
      const messageId = `m${i}`;
      await cards.saveMessageEmbeds('cases', messageId, caseEmbeds(i), postedAt);
      await cards.saveSubject('g1', `case:4821337:${i}`, {
        channelId: 'cases',
        messageId,
        embedIndex: 0,
        embedCount: 1,
        postedAt,
      });
    };
    await seed(OLD_CARDS, (i) => save(i, now - CARDS_FOLLOWED_MS - DAY - i));
    await seed(NEW_CARDS, (i) => save(OLD_CARDS + i, now - DAY));
    log(
      `  round ${round}: seeded ${OLD_CARDS + NEW_CARDS} cards and their messages in ${formatNumber((performance.now() - started) / 1000)} s`,
    );

    const watch = watchLoopGaps();
    const start = performance.now();
    const forgotten = await cards.sweep(now - CARDS_FOLLOWED_MS);
    const wallMs = performance.now() - start;
    const blockMs = watch.stop();
    const left = await store.documents.list('card_message');
    if (forgotten !== OLD_CARDS || left.length !== NEW_CARDS) {
      throw new Error(`swept ${forgotten} cards and left ${left.length} messages, not ${OLD_CARDS} and ${NEW_CARDS}`);
    }
    return { blockMs, wallMs };
  } finally {
    await remove();
  }
}

export const housekeepingGroup: BenchGroup = {
  name: 'housekeeping',
  figures: [
    'housekeeping.escalator_tick_ms',
    'housekeeping.escalator_tick_vs_limit',
    'housekeeping.sweep_block_ms',
    'housekeeping.sweep_block_vs_limit',
  ],
  async run(figures) {
    log(
      `housekeeping: the modcall escalator's check with ${STORED_MODCALLS} modcall cards stored (${NEW_PER_TICK} new + 1 ` +
        `to escalate per check; ${TICK_ROUNDS} checks), and the card sweep over ${OLD_CARDS} old cards and their ` +
        `messages (${SWEEP_ROUNDS} rounds, a fresh file each); bot's SQLite store in ${tmpdir()}`,
    );
    const ticks = await measureEscalatorTicks();
    log(`  check with 6 due: ${formatList(ticks.ticks)} ms -> median ${formatNumber(median(ticks.ticks))} ms`);
    log(`  CPU time of those checks: ${formatList(ticks.cpu)} ms -> median ${formatNumber(median(ticks.cpu))} ms`);
    log(`  check with none due: ${formatList(ticks.idle)} ms -> median ${formatNumber(median(ticks.idle))} ms`);
    log(
      `  for scale, reading every stored modcall card (what each check used to do): ${formatNumber(ticks.scanMs)} ms`,
    );

    const sweeps: SweepRun[] = [];
    for (let round = 1; round <= SWEEP_ROUNDS; round += 1) {
      const run = await measureSweep(round);
      sweeps.push(run);
      log(
        `  round ${round}: longest main-thread block ${formatNumber(run.blockMs)} ms; the sweep took ${formatNumber(run.wallMs / 1000)} s`,
      );
    }
    const blocks = sweeps.map((run) => run.blockMs);
    log(`  longest block per round: ${formatList(blocks)} ms -> median ${formatNumber(median(blocks))} ms`);

    const tick = median(ticks.ticks);
    const block = median(blocks);
    log(`  limits: escalator check ${TICK_LIMIT_MS} ms, sweep block ${SWEEP_LIMIT_MS} ms`);
    figures.add('housekeeping.escalator_tick_ms', tick, 'ms');
    figures.add('housekeeping.escalator_tick_vs_limit', tick / TICK_LIMIT_MS, 'x');
    figures.add('housekeeping.sweep_block_ms', block, 'ms');
    figures.add('housekeeping.sweep_block_vs_limit', block / SWEEP_LIMIT_MS, 'x');
  },
};
