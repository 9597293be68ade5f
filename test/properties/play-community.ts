import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import type { ModcallCard } from '../../src/features/cards/modcall-card.js';
import { recordModcallHandling } from '../../src/features/cards/record-modcall.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { recordModule } from '../../src/features/record/store/record-module.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { callTells, type Community, type Step } from './community-events.js';
import { claimClick, resolveClick } from './record-model.js';

/*
 * The real bot's path for a generated community: each delivery through the store's accept (the intake's), the
 * record's writer (recordPending) a few deliveries at a time, and each click on a modcall card through the cards
 * feature's recordModcallHandling; on a real SQLite file and a PostgreSQL database of the suite's cluster.
 */

/** The engines every property runs on; PostgreSQL when the suite has its cluster. */
const ENGINES = [
  {
    name: 'SQLite',
    skip: false,
    open: () => {
      // In memory-backed /dev/shm where there is one: a real file, whose fsyncs cost nothing (a run commits ~100 times).
      const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'props-'));
      const dispose = () => Promise.resolve(rmSync(dir, { recursive: true, force: true }));
      return { url: Promise.resolve(`sqlite://${dir}/store.sqlite`), dispose };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !POSTGRES_URL,
    open: () => {
      const database = createTestDatabase();
      return { url: database.then((made) => made.url), dispose: async () => (await database).drop() };
    },
  },
];

/**
 * Declares `body`'s tests once per engine, each engine's sharing one store (opened before, closed after); every run
 * of a property uses a guild of its own (`nextGuild`), so runs never see each other's record.
 */
export function describeOnEngines(
  title: string,
  body: (engine: { store: () => Store; nextGuild: () => string; name: string }) => void,
): void {
  for (const engine of ENGINES) {
    describe.skipIf(engine.skip)(`${title} on ${engine.name}`, () => {
      let store: Store | undefined;
      let dispose: (() => Promise<void>) | undefined;
      let guilds = 0;
      beforeAll(async () => {
        const opened = engine.open();
        dispose = opened.dispose;
        store = await openStore(await opened.url, STORE_MODULES, () => Date.UTC(2026, 0, 1));
      });
      afterAll(async () => {
        await store?.close();
        await dispose?.();
      });
      body({
        name: engine.name,
        store: () => {
          if (!store) throw new Error('the store is not open yet');
          return store;
        },
        nextGuild: () => {
          guilds += 1;
          return `7${String(guilds).padStart(17, '0')}`;
        },
      });
    });
  }
}

/** How long a failure found is shrunk before it is reported as it stands, so that it is reported within the test's time. */
const SHRINK_FOR_MS = 10_000;

/**
 * Checks a property over the store in all its `numRuns` runs, from a new seed each time (fast-check prints the seed and
 * path of a failure; PROPS_SEED and PROPS_PATH replay it), however slow the machine: fast-check's time limit counts
 * from the start and ends the runs too, counting those not made as passed, so the runs are made first without
 * shrinking, and only a failure's replay is shrunk, for up to {@link SHRINK_FOR_MS}.
 */
export async function assertProperty<Ts>(property: fc.IAsyncProperty<Ts>, numRuns: number): Promise<void> {
  const seed = process.env['PROPS_SEED'];
  const path = process.env['PROPS_PATH'];
  const replay = { ...(seed === undefined ? {} : { seed: Number(seed) }), ...(path === undefined ? {} : { path }) };
  const found = await fc.check(property, { numRuns, endOnFailure: true, ...replay });
  if (!found.failed) return;
  await fc.assert(property, {
    seed: found.seed,
    ...(found.counterexamplePath === null ? {} : { path: found.counterexamplePath }),
    plugins: [fc.interruptAfterTimeLimit(SHRINK_FOR_MS)],
  });
  // The failure did not come again on its replay: reported as it was found.
  throw new Error(fc.defaultReportMessage(found));
}

/** Runs the record's writer until nothing waits, as its timer would. */
export async function recordEverything(store: Store): Promise<void> {
  for (;;) {
    const { recorded, skipped } = await store.of(recordModule).recordPending(50);
    if (recorded + skipped === 0) return;
  }
}

/**
 * Plays the schedule for the guild: deliveries accepted, clicks recorded, the writer's passes run. A modcall the store
 * accepted goes to its card as the feed takes it: the first of the card's calls to come posts it, and each later one
 * (a new delivery id, the card not resolved) is added to it and the card told to the record, as
 * card-edits.ts's addCall does; its calls are in the order they came. (The generated card stays whole: the feed
 * would post a card of its own for a call that came so far out of order that it is beyond the repeat window of every
 * call on the card so far, not knowing yet that a call between them will come.) At each `check` step and at the end,
 * the writer catches up and `look` is given what the bot has been told so far (the deliveries' `tells`, the clicks).
 */
export async function playCommunity(
  store: Store,
  guildId: string,
  community: Community,
  steps: readonly Step[],
  look: (seen: ReadonlySet<string>) => Promise<void>,
): Promise<void> {
  const logs = captureLogs('warn');
  const handle = recordModcallHandling(store.of(recordModule), logs.logger);
  const seen = new Set<string>();
  const cards = community.cards.map((card, index) => cardOf(guildId, card, index));
  const cardOfCall = new Map(
    community.cards.flatMap((card, index) => card.calls.map((_, call) => [callTells(index, call), index] as const)),
  );
  for (const step of steps) {
    switch (step.kind) {
      case 'deliver': {
        const { delivery, deliveryId } = step;
        const id = `${guildId}/${deliveryId}`;
        const envelope = { id, event: delivery.event, server: delivery.server, at: delivery.at, data: delivery.data };
        const outcome = await store.deliveries.accept({
          hookId: `hook-${guildId}`,
          guildId,
          deliveryId: id,
          event: delivery.event,
          server: delivery.server,
          rawBody: JSON.stringify(envelope),
          receivedAt: delivery.at,
        });
        seen.add(delivery.tells);
        const card = cards[cardOfCall.get(delivery.tells) ?? -1];
        // A resolved card takes no more calls (the feed posts a card of its own, which nobody clicks here).
        if (outcome === 'accepted' && card && card.resolvedAt === null) {
          card.calls.push({ deliveryId: id, at: delivery.at });
          if (card.calls.length > 1) await handle({ ...card, calls: [...card.calls] });
        }
        break;
      }
      case 'click': {
        const fact = community.cards[step.card];
        const card = cards[step.card];
        if (!fact || !card) throw new Error(`no card ${step.card}`);
        // As the Claim and Resolve buttons change the card, then hand it to the record.
        if (step.action === 'claim' && fact.claim) {
          Object.assign(card, { claimedBy: fact.claim.by.id, claimedAt: fact.claim.at });
          seen.add(claimClick(step.card));
        }
        if (step.action === 'resolve' && fact.resolve) {
          Object.assign(card, { resolvedBy: fact.resolve.by.id, resolvedAt: fact.resolve.at });
          seen.add(resolveClick(step.card));
        }
        await handle({ ...card, calls: [...card.calls] });
        break;
      }
      case 'record':
        await store.of(recordModule).recordPending(step.limit);
        break;
      case 'check':
        await recordEverything(store);
        await look(new Set(seen));
        break;
    }
  }
  await recordEverything(store);
  await look(seen);
  // A click the record could not take is logged, not thrown: none may be.
  expect(logs.lines).toEqual([]);
}

/** The card the cards feature keeps for a generated card, before its first call came (its calls are added as they come). */
function cardOf(guildId: string, card: Community['cards'][number], index: number): ModcallCard {
  return {
    guildId,
    channelId: '300000000000000001',
    messageId: `${guildId}${index}`,
    server: card.server,
    caller: { robloxId: card.caller.robloxId, name: card.caller.name },
    calls: [],
    postedAt: card.calls[0] ?? 0,
    pingRoleId: null,
    claimedBy: null,
    claimedAt: null,
    resolvedBy: null,
    resolvedAt: null,
    escalatedAt: null,
  };
}
