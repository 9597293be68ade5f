import type { TestProject } from 'vitest/node';

import { findPostgresBinDir, NO_POSTGRES, startPostgresCluster } from '../helpers/postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The admin URL of the throwaway cluster; empty when there is none (PostgreSQL tests then skip). */
    postgresUrl: string;
  }
}

/**
 * One throwaway PostgreSQL cluster for the whole run (each test makes a database of its own in it), stopped at
 * the end. Without PostgreSQL's binaries the PostgreSQL tests skip, saying so once, except in CI (.ci/run sets
 * CI=1), where that is a failure: CI must prove the PostgreSQL store.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const binDir = findPostgresBinDir();
  if (!binDir) {
    if (process.env['CI']) {
      throw new Error(`PostgreSQL is required in CI and its binaries were not found: ${NO_POSTGRES}`);
    }
    process.stderr.write(`PostgreSQL tests SKIPPED: ${NO_POSTGRES}\n`);
    project.provide('postgresUrl', '');
    return undefined;
  }
  const cluster = await startPostgresCluster(binDir);
  process.stderr.write(`PostgreSQL tests on the server in ${binDir}\n`);
  project.provide('postgresUrl', cluster.adminUrl);
  return () => cluster.stop();
}
