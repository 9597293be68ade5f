import type { ButtonInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { truncateText } from '../../../../base/truncate-text.js';
import { toLoggableError } from '../../../../discord/log-error.js';
import type { Submission } from '../../../../upstream/developer-schemas.js';
import { ServiceApiError } from '../../../../upstream/service-api-error.js';
import { pickKeptFields } from '../../build-submission.js';
import { formatVersionName } from '../../release-card.js';
import { returnSubmissionSlot, takeSubmissionSlot } from '../../submission-quota.js';
import type { AppCommandDeps } from '../app.js';
import { claimDraft } from './claim-draft.js';
import { askService } from './shared.js';
import { withUploadedToken } from './submission-preview.js';

/** Cancel: nothing is sent; the preview says so and loses its buttons. */
export async function cancelSubmission(
  interaction: ButtonInteraction,
  ctx: AppCommandDeps,
  draftId: string,
): Promise<void> {
  await claimDraft(interaction, ctx, draftId, 'submission', 'submission-fields');
  await interaction.update({ content: 'Cancelled: nothing was sent to the service.', embeds: [], components: [] });
}

/**
 * Submit: counts the submission against the 10 an hour (refused here, before any call, when they are used),
 * uploads the file's bytes (POST /uploads), sends the submission as JSON with the file's token (POST
 * /apps/:id/submissions, or POST /apps for a new app), keeps its fields for the app's next version, tells how
 * many submissions are left this hour, and has the poller look at the app at once, so a watched app's new
 * release card follows.
 */
export async function sendSubmission(
  interaction: ButtonInteraction,
  ctx: AppCommandDeps,
  draftId: string,
): Promise<void> {
  const { guildId, value: draft } = await claimDraft(interaction, ctx, draftId, 'submission');
  const at = ctx.clock();
  const left = await takeSubmissionSlot(ctx.appDocuments, guildId, at);
  await interaction.deferUpdate();
  const guild = await ctx.appDocuments.readGuild(guildId);
  let answer: unknown;
  try {
    const { file } = draft;
    const uploaded = file
      ? await askService(ctx, guild, `upload ${file.name}`, (caller) => ctx.developer.upload(caller, file))
      : undefined;
    const submission: Submission = { ...draft.submission };
    delete submission.files;
    const files = withUploadedToken(draft.submission.files, uploaded?.token) ?? [];
    if (files.length > 0) submission.files = files;
    answer =
      draft.appId === null
        ? await askService(ctx, guild, 'submit the new app', (caller) => ctx.developer.createApp(caller, submission))
        : await askService(ctx, guild, 'submit the version', (caller) =>
            ctx.developer.submitVersion(caller, draft.appId ?? '', submission),
          );
  } catch (error) {
    // The service did not take it: the place in the hour's count goes back (a timeout may have counted: kept).
    if (!(error instanceof ServiceApiError && (error.failure === 'timeout' || error.failure === 'unreachable'))) {
      await returnSubmissionSlot(ctx.appDocuments, guildId, at);
    }
    const text =
      error instanceof UserFacingError ? error.message : 'Something went wrong on our side; it has been logged.';
    if (!(error instanceof UserFacingError)) {
      ctx.logger.error({ guildId, err: toLoggableError(error) }, 'submission failed');
    }
    await interaction.editReply({
      content: truncateText(`${text} Nothing from this preview is waiting for review.`, 2000),
      embeds: [],
      components: [],
    });
    return;
  }

  const name = `**${formatVersionName(draft.appName, draft.submission.version)}**`;
  const appId = draft.appId ?? readCreatedAppId(answer);
  const watch = appId === undefined ? undefined : guild.watches[appId];
  if (appId !== undefined) {
    ctx.developerCache.apps.delete(guildId);
    if (watch) ctx.releases.pollSoon(guildId, appId);
    await keepSentFields(ctx, guildId, appId, draft.submission, at);
  }
  const follow = watch
    ? `Its release card follows in <#${watch.channelId}>.`
    : `To follow its review in a channel: /app watch app:${appId ?? draft.appName}.`;
  await interaction.editReply({
    content: `${name} was sent for review. ${left} submission${left === 1 ? '' : 's'} left this hour. ${follow}`,
    embeds: [],
    components: [],
  });
}

/**
 * Keeps what was sent for the app, for the next /app submit where the service's version shows less. The
 * submission is already sent: a store failure here is logged, and the member still reads that it was sent.
 */
async function keepSentFields(
  ctx: AppCommandDeps,
  guildId: string,
  appId: string,
  submission: Submission,
  at: number,
): Promise<void> {
  try {
    await ctx.appDocuments.writeSentFields(guildId, appId, { sentAt: at, fields: pickKeptFields(submission) });
  } catch (error) {
    ctx.logger.error({ guildId, appId, err: toLoggableError(error) }, 'could not keep the fields sent');
  }
}

/** The new app's id from the answer of POST /apps, whose shape is not documented: `app.id` or `id`. */
function readCreatedAppId(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const object = answer as Record<string, unknown>;
  const app = object['app'];
  const id = typeof app === 'object' && app !== null ? (app as Record<string, unknown>)['id'] : object['id'];
  return typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)) ? String(id) : undefined;
}
