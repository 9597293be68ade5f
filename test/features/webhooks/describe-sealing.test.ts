import { describe, expect, it } from 'vitest';

import { describeSealing } from '../../../src/features/webhooks/describe-sealing.js';
import { createSecretBox } from '../../../src/store/secret-box.js';

const box = createSecretBox('a-long-enough-secret-key');

describe('the /status line on stored secrets', () => {
  it('says per value what the store holds, and how to seal what is plain', () => {
    expect(
      describeSealing({
        webhookSecrets: [box.seal('whsec_a'), box.seal('whsec_b')],
        serverKey: box.seal('usk_key'),
        developerKey: 'upk_plain_key',
      }),
    ).toBe(
      'Stored secrets: webhook secrets: 2 sealed, 0 plain; server key: sealed; developer key: plain — the host can set SECRET_KEY and restart to seal them.',
    );
  });

  it('says nothing to do when all is sealed or not set, and never shows a value', () => {
    const line = describeSealing({ webhookSecrets: [box.seal('whsec_a')], serverKey: null, developerKey: null });
    expect(line).toBe(
      'Stored secrets: webhook secrets: 1 sealed, 0 plain; server key: not set; developer key: not set.',
    );
    const plain = describeSealing({ webhookSecrets: ['whsec_a'], serverKey: 'usk_key', developerKey: null });
    expect(plain).toContain('webhook secrets: 0 sealed, 1 plain; server key: plain');
    expect(plain).not.toMatch(/whsec_a|usk_key/);
  });
});
