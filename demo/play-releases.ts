import { setTimeout as sleep } from 'node:timers/promises';

import type { FakeService } from '../fakes/service/index.js';
import { DEMO_APP } from './demo-guild.js';

export interface ReleasePlayerOptions {
  service: FakeService;
  appId: number;
  /** Pause between two moves of the review. */
  stepMs: number;
  signal: AbortSignal;
  say: (line: string) => void;
}

/** The review of one version, as the demo's reviewers move it; every third version is sent back. */
const REVIEW = ['submitted', 'in_review'] as const;

/**
 * Plays the studio's releases through the fake service until `signal` aborts: a new version is submitted, goes
 * into review, and is approved (or rejected), one move per step; the bot's release card follows each move.
 */
export async function playReleases(options: ReleasePlayerOptions): Promise<void> {
  const { service, appId, signal, say } = options;
  for (let minor = 2; !signal.aborted; minor += 1) {
    const version = `1.${minor}`;
    const outcome = minor % 3 === 1 ? 'rejected' : 'approved';
    const steps: Array<() => void> = [
      () => service.addVersion(appId, { version, status: REVIEW[0], submission: { whatsNew: `Release ${version}` } }),
      () => service.setVersionState(appId, version, REVIEW[1]),
      () => service.setVersionState(appId, version, outcome),
    ];
    const names = [...REVIEW, outcome];
    for (const [index, step] of steps.entries()) {
      if (!(await pause(options.stepMs, signal))) return;
      step();
      say(`  → ${DEMO_APP.name} ${version}: ${names[index] ?? ''} (at the fake service; its release card follows)`);
    }
  }
}

async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
