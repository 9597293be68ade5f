import { readFileSync } from 'node:fs';

/** package.json's version: what the bot says it is (/healthz, /status, bridge_build_info, its first log line). */
export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
