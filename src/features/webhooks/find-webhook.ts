import { UserFacingError } from '../../base/errors.js';
import type { HookStore, StoredHook } from '../../store/hooks.js';

/** A stored webhook the service confirmed, with the service's id for it. */
export type ServiceHook = StoredHook & { webhookId: string };

/**
 * The guild's webhook an admin chose: by the autocomplete value (our hookId) or by the service's id typed by
 * hand. Without a choice, the guild's only webhook. Only this guild's webhooks can ever be found.
 * @throws UserFacingError when there is none, the choice is unknown, or a choice is needed
 */
export async function findGuildHook(
  hookStore: Pick<HookStore, 'listForGuild'>,
  guildId: string,
  choice: string | null,
): Promise<StoredHook> {
  const hooks = await hookStore.listForGuild(guildId);
  if (hooks.length === 0) throw new UserFacingError('This server has no webhooks yet: run /webhook register first.');
  if (choice === null) {
    const [only] = hooks;
    if (hooks.length > 1 || !only) {
      throw new UserFacingError(`This server has ${hooks.length} webhooks: choose one in the webhook option.`);
    }
    return only;
  }
  const wanted = choice.trim();
  const hook = hooks.find((candidate) => candidate.hookId === wanted || candidate.webhookId === wanted);
  if (!hook)
    throw new UserFacingError('This server has no such webhook: choose one from the list, or see /webhook list.');
  return hook;
}

/**
 * The webhook with the service's id, which test and enable need.
 * @throws UserFacingError for a record the service never confirmed (a registration cut short)
 */
export function requireServiceId(hook: StoredHook): ServiceHook {
  if (hook.webhookId === null) {
    throw new UserFacingError(
      'The service never confirmed this webhook: remove it with /webhook remove and register again.',
    );
  }
  return { ...hook, webhookId: hook.webhookId };
}

/** How a webhook is named to admins: the service's id, which is what the service itself shows. */
export function webhookName(hook: Pick<StoredHook, 'webhookId'>): string {
  return hook.webhookId ?? 'unconfirmed webhook';
}
