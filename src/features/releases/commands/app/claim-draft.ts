import type { ButtonInteraction, ModalSubmitInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import type { AppDraft } from '../../app-draft.js';
import type { Draft } from '../../drafts.js';
import { requireReleaseManager } from '../../release-managers.js';
import type { AppCommandDeps } from '../app.js';

/** What a click on a preview that no longer exists says (restart, 15 minutes). */
export const EXPIRED_PREVIEW = 'This preview has expired or was already answered: run the command again.';
/** What a second click on an answered preview (or a second submit of a dialog) says: the first one acts. */
export const ALREADY_ANSWERED = 'This preview was already answered: nothing more was sent.';

type DraftOf<K extends AppDraft['kind']> = Draft<Extract<AppDraft, { kind: K }>>;

/**
 * The draft a button or dialog acts on, if it is the answering member's own; it stays where it is.
 * @throws UserFacingError for an expired or answered draft, or another member's
 */
export function findOwnDraft<K extends AppDraft['kind']>(
  interaction: ButtonInteraction | ModalSubmitInteraction,
  ctx: AppCommandDeps,
  draftId: string,
  kinds: readonly K[],
): DraftOf<K> {
  const draft = ctx.appDrafts.get(draftId);
  if (!draft) throw new UserFacingError(ctx.appDrafts.wasTaken(draftId) ? ALREADY_ANSWERED : EXPIRED_PREVIEW);
  if (!(kinds as readonly string[]).includes(draft.value.kind) || draft.guildId !== interaction.guildId) {
    throw new UserFacingError(EXPIRED_PREVIEW);
  }
  if (draft.userId !== interaction.user.id) {
    throw new UserFacingError(
      interaction.isModalSubmit()
        ? 'Only the member who opened this dialog can submit it.'
        : 'Only the member who made this preview can answer it.',
    );
  }
  return draft as DraftOf<K>;
}

/**
 * The draft a button or dialog acts on, taken, after checking who answers it: the one who made it, still
 * allowed to. It is taken before anything is awaited, so a second click arriving meanwhile finds it answered.
 * @throws UserFacingError for an expired or answered draft, another member, or a member who lost the role
 */
export async function claimDraft<K extends AppDraft['kind']>(
  interaction: ButtonInteraction | ModalSubmitInteraction,
  ctx: AppCommandDeps,
  draftId: string,
  ...kinds: K[]
): Promise<DraftOf<K>> {
  const draft = findOwnDraft(interaction, ctx, draftId, kinds);
  ctx.appDrafts.take(draftId);
  requireReleaseManager(interaction, await ctx.appDocuments.readGuild(draft.guildId));
  return draft;
}
