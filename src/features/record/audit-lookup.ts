import type { AuditLog } from '../audit/index.js';

/** Who looked, where, as an interaction says it. */
export interface LookupAsker {
  guildId: string;
  userId: string;
}

/**
 * Writes the audit line of a lookup in the community record (`/case lookup`, `/staff stats`, `/staff history`, `/export`,
 * `/record mine`): who, when, what was asked and about whom, never what it showed. Written before the answer,
 * so nobody reads the record without a line saying so; a line that cannot be written fails the lookup.
 * @param action the command as asked, naming its subject (`/case lookup player:Name (id)`)
 * @param subject whom it was about (`player:<Roblox id>`, `member:<Discord id>`), what forgetting them finds
 */
export async function auditLookup(
  audit: Pick<AuditLog, 'append'>,
  asker: LookupAsker,
  at: number,
  action: string,
  subject?: string,
): Promise<void> {
  await audit.append({
    guildId: asker.guildId,
    userId: asker.userId,
    action,
    result: 'done',
    detail: null,
    at,
    kind: 'lookup',
    ...(subject === undefined ? {} : { subject }),
  });
}

/** The subject of a lookup about a player. */
export function playerSubject(playerId: string): string {
  return `player:${playerId}`;
}

/** The subject of a lookup about a member (a Discord account). */
export function memberSubject(userId: string): string {
  return `member:${userId}`;
}
