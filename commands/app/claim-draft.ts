import type { ButtonInteraction, ModalSubmitInteraction } from 'discord.js';

import type { AppDraft } from '../../src/apps/app-draft.js';
import type { Draft } from '../../src/apps/drafts.js';
import { requireReleaseManager } from '../../src/apps/release-managers.js';
import { UserFacingError } from '../../src/errors.js';
import type { CommandContext } from '../context.js';

/** What a click on a preview that no longer exists says (restart, 15 minutes). */
export const EXPIRED_PREVIEW = 'This preview has expired or was already answered: run the command again.';
/** What a second click on an answered preview (or a second submit of a dialog) says: the first one acts. */
export const ALREADY_ANSWERED = 'This preview was already answered: nothing more was sent.';

/**
 * The draft a button or dialog acts on, after checking who answers it: the one who made it, still allowed to.
 * The draft is taken before anything is awaited, so a second click arriving meanwhile finds it answered.
 * @throws UserFacingError for an expired or answered draft, another member, or a member who lost the role
 */
export async function claimDraft<K extends AppDraft['kind']>(
  interaction: ButtonInteraction | ModalSubmitInteraction,
  ctx: CommandContext,
  draftId: string,
  kind: K,
): Promise<Draft<Extract<AppDraft, { kind: K }>>> {
  const draft = ctx.appDrafts.get(draftId);
  if (!draft) throw new UserFacingError(ctx.appDrafts.wasTaken(draftId) ? ALREADY_ANSWERED : EXPIRED_PREVIEW);
  if (draft.value.kind !== kind || draft.guildId !== interaction.guildId) throw new UserFacingError(EXPIRED_PREVIEW);
  if (draft.userId !== interaction.user.id) {
    throw new UserFacingError(
      interaction.isModalSubmit()
        ? 'Only the member who opened this dialog can submit it.'
        : 'Only the member who made this preview can answer it.',
    );
  }
  ctx.appDrafts.take(draftId);
  requireReleaseManager(interaction, await ctx.appRecords.readGuild(draft.guildId));
  return draft as Draft<Extract<AppDraft, { kind: K }>>;
}
