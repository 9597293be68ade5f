import type { Logger } from '../../base/logger.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { ForgottenGuild, GuildForgetting } from '../../store/forget-guild.js';
import type { AuditLog } from '../audit/index.js';

export interface ForgetLeftGuildDeps {
  store: GuildForgetting;
  audit: Pick<AuditLog, 'append'>;
  /** Who the audit line names: the bot itself (Discord does not say who removed it). */
  botUserId: string;
  /** Milliseconds since the Unix epoch. */
  clock: () => number;
  logger: Logger;
}

/**
 * The bot was removed from a server: everything kept for it is forgotten (its webhooks answer 404 from then
 * on, its keys and secrets are deleted, its watched apps are no longer polled, its waiting and held deliveries
 * are dropped). One log line and one audit line say how much, never what: no key or secret is in either. The
 * audit line stays for the server's admins to read if the bot is added again.
 */
export async function forgetLeftGuild(guildId: string, deps: ForgetLeftGuildDeps): Promise<ForgottenGuild> {
  const forgotten = await deps.store.forgetGuild(guildId);
  deps.logger.info({ guildId, ...forgotten }, 'removed from a server: everything kept for it is forgotten');
  await deps.audit
    .append({
      guildId,
      userId: deps.botUserId,
      action: describeForgotten(forgotten),
      result: 'done',
      detail: null,
      at: deps.clock(),
    })
    .catch((error: unknown) =>
      deps.logger.warn({ err: toLoggableError(error), guildId }, 'the audit line of leaving a server failed'),
    );
  return forgotten;
}

/** The audit line: what was forgotten, counted. */
function describeForgotten(forgotten: ForgottenGuild): string {
  const parts = [
    plural(forgotten.hooks, 'webhook'),
    forgotten.serverKeys > 0 ? 'the server key' : undefined,
    plural(forgotten.openDeliveries, 'waiting or held delivery', 'waiting or held deliveries'),
    plural(forgotten.documents, 'record'),
  ].filter((part) => part !== undefined);
  return `Removed from the server: forgot ${parts.length > 0 ? parts.join(', ') : 'nothing (none kept)'}`;
}

function plural(count: number, one: string, many = `${one}s`): string | undefined {
  if (count === 0) return undefined;
  return `${count} ${count === 1 ? one : many}`;
}
