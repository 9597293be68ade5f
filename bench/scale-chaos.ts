import {
  buildChaosWorld,
  CHAOS_GUILDS,
  CHAOS_PER_GUILD,
  chaosFleet,
  checkPosted,
  runPostgresChaos,
} from '../test/e2e/chaos-scenario.js';
import type { PostgresCluster } from '../test/helpers/postgres-cluster.js';
import { withDatabase } from './lib/postgres.js';
import { log, type Figures } from './lib/report.js';
import { formatList } from './lib/stats.js';

/**
 * scale.lost, scale.doubled, scale.order_violations: test/e2e's chaos scenario on PostgreSQL (3 intake and 2 feed
 * processes, 10,000 signed deliveries over 200 guilds x 3 channels, re-sends and concurrent copies, an intake
 * process and ten feed processes SIGKILLed, Discord answering 500 and then hanging), a fresh database per round.
 * The figures are the totals over the rounds: a count that must be 0 is not a median (one bad round is a bug).
 */
/** `bot`: the node arguments of each bot process (bench/lib/npm-start-build.ts). */
export async function measureChaos(
  cluster: PostgresCluster,
  rounds: number,
  figures: Figures,
  bot: readonly string[],
): Promise<void> {
  log(
    `chaos on PostgreSQL: ${CHAOS_GUILDS * CHAOS_PER_GUILD} deliveries over ${CHAOS_GUILDS} guilds, 3 intake + 2 feed ` +
      `processes, SIGKILLs and Discord faults; ${rounds} round(s)`,
  );
  const outcomes: Array<ReturnType<typeof checkPosted>> = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    const outcome = await withDatabase(cluster, async (database) => {
      const world = await buildChaosWorld(database.url, CHAOS_GUILDS);
      const fleet = chaosFleet(world, database.url, bot);
      try {
        const record = await runPostgresChaos(fleet, world);
        const answered = [...record.answered.values()].flat().length;
        if (answered !== CHAOS_GUILDS * CHAOS_PER_GUILD) log(`  ! only ${answered} deliveries were answered 2xx`);
        if (world.discord.violations.length > 0) {
          log(`  ! the fake Discord saw ${world.discord.violations.length} requests that break its rules`);
        }
        log(
          `  round ${round + 1}: ${answered} answered 2xx (${record.doubled} sent as two concurrent copies, ` +
            `${record.resent} sent again later), ${world.discord.nonceDuplicates} resends de-duplicated by nonce`,
        );
        return checkPosted(world, record);
      } finally {
        await fleet.stopAll();
        await world.discord.close();
      }
    });
    outcomes.push(outcome);
    log(
      `  round ${round + 1}: lost ${outcome.lost}, doubled ${outcome.doubled}, out of order ${outcome.outOfOrder} ` +
        `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  const total = (pick: (outcome: ReturnType<typeof checkPosted>) => number) =>
    outcomes.reduce((sum, outcome) => sum + pick(outcome), 0);
  log(`  lost per round: ${formatList(outcomes.map((outcome) => outcome.lost))} (target 0)`);
  log(`  doubled per round: ${formatList(outcomes.map((outcome) => outcome.doubled))} (target 0)`);
  log(`  out of order per round: ${formatList(outcomes.map((outcome) => outcome.outOfOrder))} (target 0)`);
  figures.add(
    'scale.lost',
    total((outcome) => outcome.lost),
    'deliveries',
  );
  figures.add(
    'scale.doubled',
    total((outcome) => outcome.doubled),
    'deliveries',
  );
  figures.add(
    'scale.order_violations',
    total((outcome) => outcome.outOfOrder),
    'embeds',
  );
}
