import { describe, expect, it } from 'vitest';

import { StartupError } from '../../../src/base/startup-error.js';
import { requireSupportedVersion, type Queryable } from '../../../src/store/postgres/require-supported-version.js';

/** A server that answers `SHOW server_version_num` as one of that version would (no old server runs here). */
function serverOf(versionNum: string): Queryable {
  return {
    query: <Row extends object>(text: string) => {
      expect(text).toBe('SHOW server_version_num');
      return Promise.resolve({ rows: [{ server_version_num: versionNum }] as unknown as Row[] });
    },
  };
}

describe('the PostgreSQL version check at start', () => {
  it('refuses a server below 14 with one line naming its version and the one needed', async () => {
    const refusal = requireSupportedVersion(serverOf('130011'));
    await expect(refusal).rejects.toThrow(StartupError);
    await expect(refusal).rejects.toThrow(
      'the PostgreSQL server that STORE_URL names is version 13: the bot needs PostgreSQL 14 or newer',
    );
  });

  it('accepts 14 and newer', async () => {
    await expect(requireSupportedVersion(serverOf('140000'))).resolves.toBeUndefined();
    await expect(requireSupportedVersion(serverOf('170002'))).resolves.toBeUndefined();
  });
});
