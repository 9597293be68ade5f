import { createSecretKey, type KeyObject } from 'node:crypto';

import type { StoredHook } from '../store/hooks.js';
import type { SecretBox } from '../store/secret-box.js';

/**
 * Each hook's signing secret, opened (decrypted, when SECRET_KEY is set) and imported as an HMAC key once per
 * stored value instead of on every delivery. Keyed by hookId with the sealed value beside it, so a hook whose
 * secret changed is opened afresh. Only registered hooks reach here (unknown ids are refused before), and a
 * hook found removed is forgotten, so the map holds at most one entry per hook.
 */
export class SigningKeys {
  private readonly keys = new Map<string, { sealed: string; key: KeyObject }>();

  constructor(private readonly secrets: SecretBox) {}

  keyOf(hook: Pick<StoredHook, 'hookId' | 'secret'>): KeyObject {
    const cached = this.keys.get(hook.hookId);
    if (cached?.sealed === hook.secret) return cached.key;
    const key = createSecretKey(Buffer.from(this.secrets.open(hook.secret), 'utf8'));
    this.keys.set(hook.hookId, { sealed: hook.secret, key });
    return key;
  }

  /** Drops a removed hook's key. */
  forget(hookId: string): void {
    this.keys.delete(hookId);
  }
}
