import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Read once a run: every process a benchmark forks gets the same flags. */
let PACKAGE_START_FLAGS: string[] | undefined;

/**
 * The node flags `npm start` gives the bot (package.json's start script: `node <flags> scripts/launch.js bot`), and
 * V8's memory saver mode where scripts/launch.js sets it in the process (Node 24 on): the bot process is measured
 * sized as it runs in production (the young generation's limit and the collector's mode, most of all). Given here on
 * the command line, which V8 reads the same way (measured: the same heap and RSS within the rounds' noise).
 */
export function startFlags(): string[] {
  const memorySaver = Number(process.versions.node.split('.')[0]) >= 24 ? ['--memory-saver-mode'] : [];
  return [...packageStartFlags(), ...memorySaver];
}

/** The flags on package.json's start script's command line, before `scripts/launch.js bot`. */
function packageStartFlags(): string[] {
  PACKAGE_START_FLAGS ??= readPackageStartFlags();
  return [...PACKAGE_START_FLAGS];
}

function readPackageStartFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const flags = /\bnode((?:\s+--\S+)*)\s+scripts\/launch\.js bot/.exec(pkg.scripts?.start ?? '')?.[1] ?? '';
  return flags.split(/\s+/).filter(Boolean);
}

/**
 * The node arguments of `npm start` itself: package.json's flags, then scripts/launch.js (which sets the memory saver
 * mode and runs the compiled bot, dist/src/main.js). For processes started the way a host starts the bot.
 */
export function npmStartArgs(): string[] {
  return [...packageStartFlags(), fileURLToPath(new URL('../../scripts/launch.js', import.meta.url)), 'bot'];
}

/**
 * The node flags of every process a benchmark measures as the bot or its peer (server, feed bot, bare Node):
 * npm start's, then BENCH_SERVER_FLAGS, e.g. "--cpu-prof --cpu-prof-dir=bench-profiles" to profile it under load.
 */
export function serverNodeFlags(): string[] {
  return [...startFlags(), ...(process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean)];
}
