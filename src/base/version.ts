import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'service-discord-bridge';

let version: string | undefined;

/**
 * The bot's version, package.json's (a semantic version; CHANGELOG.md says what each one asks of a host): what
 * /healthz, /status, `bridge_build_info` and the log's first line show. Read once, from the package.json above
 * this file, which is the project's in a checkout (src/base/) and in a build (dist/src/base/) alike.
 */
export function bridgeVersion(): string {
  version ??= readVersion(dirname(fileURLToPath(import.meta.url)));
  return version;
}

function readVersion(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    const file = join(folder, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === PACKAGE_NAME && manifest.version) return manifest.version;
    }
    if (dirname(folder) === folder) throw new Error(`no package.json of ${PACKAGE_NAME} above ${from}`);
  }
}
