import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

const SEALED_PREFIX = 'sealed:v1:';
/** Fixed on purpose: SECRET_KEY is the secret; the salt only separates this use of it from any other. */
const KEY_SALT = 'service-discord-bridge/secret-box/v1';

/** Whether a stored value is sealed (written with SECRET_KEY set) rather than stored as it is. */
export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/** Seals server keys and webhook secrets before they are stored, when SECRET_KEY is set. */
export interface SecretBox {
  seal(plain: string): string;
  open(stored: string): string;
  readonly encrypts: boolean;
}

/**
 * AES-256-GCM with a random 96-bit IV per value; the auth tag makes a tampered or wrongly keyed value fail
 * instead of decrypting to garbage. Without SECRET_KEY values are stored as they are (README.md, "Configuration",
 * says so).
 */
export function createSecretBox(secretKey: string | undefined): SecretBox {
  if (!secretKey) {
    return {
      encrypts: false,
      seal: (plain) => plain,
      open(stored) {
        if (isSealed(stored)) {
          throw new Error(
            'a stored secret is encrypted, but SECRET_KEY is not set: set the SECRET_KEY it was sealed with',
          );
        }
        return stored;
      },
    };
  }
  const key = scryptSync(secretKey, KEY_SALT, 32);
  return {
    encrypts: true,
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
    },
    open(stored) {
      // Values stored before SECRET_KEY was set are still readable; the next start seals them (sealStoredSecrets).
      if (!isSealed(stored)) return stored;
      const [iv, tag, sealed] = stored
        .slice(SEALED_PREFIX.length)
        .split('.')
        .map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !tag || !sealed) throw new Error('a stored secret is damaged');
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('a stored secret cannot be decrypted: SECRET_KEY differs from the one it was sealed with');
      }
    },
  };
}
