import { randomBytes } from 'node:crypto';

/** Why a request's key was refused, with the status and error body the service answers (§5.7, §7). */
export interface KeyRefusal {
  status: 401 | 403;
  code: string;
  message: string;
}

export type KeyCheck = { ok: true; key: string; serverId: string } | { ok: false; refusal: KeyRefusal };

/**
 * The fake's server keys. A key belongs to one game server; webhooks belong to the server, so replacing a key
 * (§5.4) keeps the webhooks and lets the new key test and enable them, while the old key answers 401.
 * Access is revoked per server (§5.7): every key of that server then answers 403.
 */
export class KeyRegistry {
  private readonly serverOfKey = new Map<string, string>();
  private readonly revokedServers = new Set<string>();
  private nextServerId = 4_810_000_000_001;

  /** Makes a fresh `usk_` key for a game server (a new one with a digit id when `serverId` is omitted). */
  issue(serverId?: string): string {
    const key = makeKey();
    this.serverOfKey.set(key, serverId ?? String(this.nextServerId++));
    return key;
  }

  /** Makes a new key for the same server; the old one stops working at once. */
  replace(oldKey: string): string {
    const serverId = this.requireServer(oldKey);
    this.serverOfKey.delete(oldKey);
    return this.issue(serverId);
  }

  /** Revokes developer access of the key's server: its keys answer 403 from now on. */
  revoke(key: string): void {
    this.revokedServers.add(this.requireServer(key));
  }

  /** The game server a live key belongs to. */
  requireServer(key: string): string {
    const serverId = this.serverOfKey.get(key);
    if (serverId === undefined) throw new Error('the fake service does not know this key (replaced, or never issued)');
    return serverId;
  }

  /** Checks an `Authorization` header the way the service does. */
  check(authorization: string | undefined): KeyCheck {
    const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
    const key = match?.[1];
    if (key === undefined) return refuse(401, 'missing_key', 'Send the server key as "Authorization: Bearer usk_…".');
    if (key.startsWith('upk_'))
      return refuse(401, 'wrong_key_kind', 'This is a developer key; the server API needs a v2 server key (usk_…).');
    const serverId = this.serverOfKey.get(key);
    if (serverId === undefined) return refuse(401, 'invalid_key', 'The server key is wrong, replaced or revoked.');
    if (this.revokedServers.has(serverId)) return refuse(403, 'access_revoked', 'Developer access was revoked.');
    return { ok: true, key, serverId };
  }
}

function makeKey(): string {
  return `usk_${randomBytes(24).toString('hex')}`;
}

function refuse(status: 401 | 403, code: string, message: string): KeyCheck {
  return { ok: false, refusal: { status, code, message } };
}
