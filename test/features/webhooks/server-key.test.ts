import { describe, expect, it } from 'vitest';

import { UserFacingError } from '../../../src/base/errors.js';
import { STORE_MODULES } from '../../../src/features/index.js';
import { openServerKey, readServerKeyInput, saveServerKey } from '../../../src/features/webhooks/server-key.js';
import { openStore } from '../../../src/store/open-store.js';
import { createSecretBox } from '../../../src/store/secret-box.js';
import { captureLogs } from '../../helpers/capture-logs.js';

const KEY = 'usk_0123456789abcdef0123456789abcdef';

describe('readServerKeyInput', () => {
  it('accepts a server key, forgiving spaces around it and a "Bearer " in front', () => {
    expect(readServerKeyInput(`  ${KEY}\n`)).toEqual({ ok: true, key: KEY });
    expect(readServerKeyInput(`Bearer ${KEY}`)).toEqual({ ok: true, key: KEY });
  });

  it('explains the difference when a developer key is pasted, without quoting it', () => {
    const developerKey = 'upk_secretdeveloperkey0123456789';
    const result = readServerKeyInput(developerKey);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toContain('developer key');
    expect(result.problem).toContain('usk_');
    expect(result.problem).not.toContain(developerKey);
  });

  it.each([
    ['anything else', 'hello-world-1234567890', 'not a server key'],
    ['a key with a space inside', 'usk_0123 456789abcdef', 'spaces'],
    ['a key cut short', 'usk_0123', 'too short'],
  ])('refuses %s', (_what, input, expected) => {
    const result = readServerKeyInput(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem).toContain(expected);
      expect(result.problem).not.toContain(input);
    }
  });
});

describe('saveServerKey and openServerKey', () => {
  it('store the key sealed with SECRET_KEY and open it again', async () => {
    const store = await openStore('memory://', STORE_MODULES);
    const secrets = createSecretBox('a-secret-key-of-sixteen+');
    const { logger } = captureLogs();
    expect(await saveServerKey({ guilds: store.guilds, secrets }, 'g1', KEY)).toBe(false);
    const stored = (await store.guilds.get('g1')).serverKey;
    expect(stored).not.toContain(KEY);
    expect(stored?.startsWith('sealed:v1:')).toBe(true);
    expect(await openServerKey({ guilds: store.guilds, secrets, logger }, 'g1')).toBe(KEY);
    expect(await saveServerKey({ guilds: store.guilds, secrets }, 'g1', `${KEY}2`)).toBe(true);
    await store.close();
  });

  it('say to run /setup when no key is set, or when SECRET_KEY changed', async () => {
    const store = await openStore('memory://', STORE_MODULES);
    const logs = captureLogs();
    const ctx = { guilds: store.guilds, secrets: createSecretBox('first-secret-key-0123'), logger: logs.logger };
    await expect(openServerKey(ctx, 'g1')).rejects.toThrow(new UserFacingError('No server key yet: run /setup first.'));
    await saveServerKey(ctx, 'g1', KEY);
    const changed = { ...ctx, secrets: createSecretBox('other-secret-key-0123') };
    await expect(openServerKey(changed, 'g1')).rejects.toThrow(/run \/setup/);
    expect(logs.text()).toContain('stored server key cannot be opened');
    expect(logs.text()).not.toContain(KEY);
    await store.close();
  });
});
