import { isSealed } from '../../store/secret-box.js';

/** The secrets stored for one guild, as stored (sealed or not); null: not set. */
export interface GuildSecrets {
  webhookSecrets: readonly string[];
  serverKey: string | null;
  developerKey: string | null;
}

/**
 * The /status line that says, per stored value, whether it is sealed: what the store holds, not what
 * SECRET_KEY promises. Each start seals what is plain when SECRET_KEY is set, so "plain" means it is not.
 */
export function describeSealing(stored: GuildSecrets): string {
  const sealedSecrets = stored.webhookSecrets.filter(isSealed).length;
  const plainSecrets = stored.webhookSecrets.length - sealedSecrets;
  const parts = [
    `webhook secrets: ${sealedSecrets} sealed, ${plainSecrets} plain`,
    `server key: ${describeValue(stored.serverKey)}`,
    `developer key: ${describeValue(stored.developerKey)}`,
  ];
  const anyPlain = plainSecrets > 0 || [stored.serverKey, stored.developerKey].some((v) => v !== null && !isSealed(v));
  return `Stored secrets: ${parts.join('; ')}${anyPlain ? ' — the host can set SECRET_KEY and restart to seal them.' : '.'}`;
}

function describeValue(value: string | null): string {
  if (value === null) return 'not set';
  return isSealed(value) ? 'sealed' : 'plain';
}
