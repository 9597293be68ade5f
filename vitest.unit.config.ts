import { defineConfig } from 'vitest/config';

/**
 * The inner loop, `npm run test:unit`: the unit tests alone, without PostgreSQL (no global setup starts a
 * cluster), so it runs in seconds. A unit test is one in `test/unit/` or directly in a feature's folder,
 * `test/features/<name>/*.test.ts`; a feature's tests that need PostgreSQL, a bot or a process of their own sit in
 * its `integration/` or `e2e/` folder. `npm test` (vitest.config.ts, the `suite` project) runs these too, with
 * everything else. A unit test that reaches for PostgreSQL fails here, saying where it belongs
 * (test/helpers/postgres-database.ts).
 */
export default defineConfig({
  test: {
    name: 'unit',
    include: ['test/unit/**/*.test.ts', 'test/features/*/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    maxWorkers: 2,
    // Worker threads that keep their modules from one file to the next: importing discord.js, the store and the
    // renderers once a worker rather than once a file is most of the run's time (about 5x less CPU). The unit
    // tests leave nothing behind them (each restores its timers and closes what it opens), and `npm test` runs
    // them again isolated, as before.
    pool: 'threads',
    isolate: false,
  },
});
