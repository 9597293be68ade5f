import {
  LabelBuilder,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { deferEphemeral } from '../../../../discord/reply.js';
import { MIN_DESCRIPTION_LENGTH } from '../../../../upstream/developer-schemas.js';
import { checkSubmission, readNewAppDetails, UPLOAD_PLACEHOLDER } from '../../build-submission.js';
import { requireReleaseManager } from '../../release-managers.js';
import { submissionsLeft } from '../../submission-quota.js';
import { toUploadName } from '../../upload-name.js';
import type { AppCommandDeps } from '../app.js';
import { claimDraft } from './claim-draft.js';
import { appCustomId, loadOptions } from './shared.js';
import { fetchGivenFile, showSubmissionPreview } from './submission-preview.js';

/** The dialog of /app new: its custom id carries the draft holding the attachments. */
export const NEW_APP_ACTION = 'new';
/** The details file is a small JSON object; anything larger is a mistake (a build attached in its place). */
const MAX_DETAILS_BYTES = 100 * 1024;

/** The dialog's inputs: the submission fields a JSON file would make awkward to edit. */
const INPUTS = [
  { id: 'name', label: 'App name', style: TextInputStyle.Short, min: 1, max: 100 },
  { id: 'tagline', label: 'Tagline', style: TextInputStyle.Short, min: 1, max: 200 },
  { id: 'description', label: 'Description', style: TextInputStyle.Paragraph, min: MIN_DESCRIPTION_LENGTH, max: 4000 },
  { id: 'version', label: 'Version', style: TextInputStyle.Short, min: 1, max: 64 },
  { id: 'whatsNew', label: "What's new", style: TextInputStyle.Paragraph, min: 1, max: 4000 },
] as const;

/**
 * /app new details [file]: a first app. The fields a dialog cannot hold come from the `details` JSON file
 * (docs/developer-api.md, "Submitting"); the dialog asks for name, tagline, description, version and change note.
 * The dialog opens at once (Discord wants it as the first answer); the files are fetched after it is sent.
 */
export async function openNewAppDialog(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
): Promise<void> {
  const guild = await ctx.appDocuments.readGuild(guildId);
  requireReleaseManager(interaction, guild);
  const details = interaction.options.getAttachment('details', true);
  const file = interaction.options.getAttachment('file');
  if (details.size > MAX_DETAILS_BYTES) {
    throw new UserFacingError(
      'The details file is over 100 KB: it should be the small JSON object docs/developer-api.md shows.',
    );
  }
  if (submissionsLeft(guild, ctx.clock()) === 0) {
    throw new UserFacingError(
      'This server has sent 10 submissions in the last hour, the most the service allows: try again later.',
    );
  }
  // Refused before the dialog: nobody types five fields for a build the service would not take.
  if (file) toUploadName(file.name);
  const draftId = ctx.appDrafts.put(guildId, interaction.user.id, {
    kind: 'new-app',
    details: { name: details.name, url: details.url, size: details.size },
    file: file ? { name: file.name, url: file.url, size: file.size } : null,
  });
  const modal = new ModalBuilder().setCustomId(appCustomId(NEW_APP_ACTION, draftId)).setTitle('New app');
  for (const input of INPUTS) {
    modal.addLabelComponents(
      new LabelBuilder()
        .setLabel(input.label)
        .setTextInputComponent(
          new TextInputBuilder()
            .setCustomId(input.id)
            .setStyle(input.style)
            .setRequired(true)
            .setMinLength(input.min)
            .setMaxLength(input.max),
        ),
    );
  }
  await interaction.showModal(modal);
}

/** The dialog's submit: fetch and read the files, check everything against GET /options, show the preview. */
export async function prepareNewApp(
  interaction: ModalSubmitInteraction,
  ctx: AppCommandDeps,
  draftId: string,
): Promise<void> {
  const draft = await claimDraft(interaction, ctx, draftId, 'new-app');
  const guild = await ctx.appDocuments.readGuild(draft.guildId);
  await deferEphemeral(interaction);
  const options = await loadOptions(ctx, guild);
  const detailsBytes = await ctx.downloadAttachment(draft.value.details, MAX_DETAILS_BYTES);
  const details = readNewAppDetails(Buffer.from(detailsBytes).toString('utf8'));
  if (!details.ok) throw new UserFacingError(`${details.problem} Nothing was sent.`);
  const typed = Object.fromEntries(
    INPUTS.map((input) => [input.id, interaction.fields.getTextInputValue(input.id).trim()]),
  );
  const candidate: Record<string, unknown> = { ...details.fields, ...typed };
  if (draft.value.file) candidate['files'] = [UPLOAD_PLACEHOLDER];
  const check = checkSubmission(candidate, options);
  if (!check.ok) {
    throw new UserFacingError(`This app would be refused, so nothing was sent:\n• ${check.problems.join('\n• ')}`);
  }
  const file = draft.value.file ? await fetchGivenFile(ctx, options, draft.value.file) : null;
  await showSubmissionPreview(
    interaction,
    ctx,
    draft.guildId,
    { kind: 'submission', appId: null, appName: check.submission.name, submission: check.submission, file },
    [],
  );
}
