import { existsSync } from 'node:fs';

/**
 * jemalloc as the container image and the systemd unit run the bot with it (Dockerfile: `LD_PRELOAD`, `MALLOC_CONF`;
 * docs/hosting.md, Memory). One arena, unused pages given back to the system after a second by a background
 * thread, small thread caches: glibc's malloc keeps its arenas' freed pages, jemalloc returns them.
 * (Returning them at once, `dirty_decay_ms:0`, doubled the intake's CPU a delivery; so did no thread caches.)
 */
export const JEMALLOC_CONF = 'narenas:1,background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0,tcache_max:4096';

/** Where Debian's libjemalloc2 installs the library (the image links it to /usr/local/lib/libjemalloc.so.2). */
const LIBRARY_PATHS = [
  '/usr/local/lib/libjemalloc.so.2',
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
];

/** The environment of a process that runs on jemalloc, or undefined where the library is not installed. */
export function jemallocEnvironment(): NodeJS.ProcessEnv | undefined {
  const library = LIBRARY_PATHS.find((path) => existsSync(path));
  return library === undefined ? undefined : { ...process.env, LD_PRELOAD: library, MALLOC_CONF: JEMALLOC_CONF };
}
