import {
  LabelBuilder,
  ModalBuilder,
  StringSelectMenuBuilder,
  StringSelectMenuOptionBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { truncateText } from '../../../../base/truncate-text.js';
import type { AppDraft } from '../../app-draft.js';
import { checkSubmission } from '../../build-submission.js';
import type { AskedField } from '../../missing-fields.js';
import { formatVersionName } from '../../release-card.js';
import { requireReleaseManager } from '../../release-managers.js';
import type { AppCommandDeps } from '../app.js';
import { ALREADY_ANSWERED, findOwnDraft } from './claim-draft.js';
import { appCustomId, confirmButtons, loadOptions, showPreview } from './shared.js';
import { CANCEL_ACTION, fetchGivenFile, showSubmissionPreview } from './submission-preview.js';

type FieldsDraft = Extract<AppDraft, { kind: 'submission-fields' }>;

/** The prompt's button that opens the dialog, and the dialog itself. */
export const FILL_ACTION = 'fill';
export const FIELDS_ACTION = 'fields';
/** The source label of the fields typed into the dialog, in the preview. */
const FROM_DIALOG = 'Typed in the dialog';

/**
 * Says which fields a submission still lacks, with a button that opens the dialog asking for them (a dialog
 * must be the first answer to an interaction, and this one has already waited for the service) and Cancel.
 */
export async function askForMissingFields(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
  draft: FieldsDraft,
): Promise<void> {
  const draftId = ctx.appDrafts.put(guildId, interaction.user.id, draft);
  const name = formatVersionName(draft.appName, String(draft.candidate['version']));
  const names = (required: boolean) =>
    draft.ask.filter((field) => field.required === required).map((field) => field.field);
  const optional = names(false);
  await showPreview(
    interaction,
    `**${name}** needs fields that the service's record of the app does not show and that were not sent from here before: ${names(true).join(', ')}` +
      `${optional.length > 0 ? ` (and, if you like, ${optional.join(', ')})` : ''}. ` +
      'Fill them in to see the submission before anything is sent; Cancel sends nothing.',
    [],
    fillButtons(draftId),
  );
}

/** Fill in: opens the dialog with what was typed before, so a correction keeps the rest. */
export async function openFieldsDialog(
  interaction: ButtonInteraction,
  ctx: AppCommandDeps,
  draftId: string,
): Promise<void> {
  const draft = findOwnDraft(interaction, ctx, draftId, ['submission-fields']);
  requireReleaseManager(interaction, await ctx.appDocuments.readGuild(draft.guildId));
  const modal = new ModalBuilder()
    .setCustomId(appCustomId(FIELDS_ACTION, draftId))
    .setTitle(truncateText(`Fields for ${draft.value.appName}`, 45));
  for (const field of draft.value.ask) modal.addLabelComponents(buildInput(field, draft.value.typed[field.field]));
  await interaction.showModal(modal);
}

/**
 * The dialog's submit: the typed fields are checked with the rest against GET /options. A refused one keeps
 * the draft and says what to correct; a good one becomes the submission preview in place of the prompt.
 */
export async function completeFields(
  interaction: ModalSubmitInteraction,
  ctx: AppCommandDeps,
  draftId: string,
): Promise<void> {
  const draft = findOwnDraft(interaction, ctx, draftId, ['submission-fields']);
  const guild = await ctx.appDocuments.readGuild(draft.guildId);
  requireReleaseManager(interaction, guild);
  await interaction.deferUpdate();
  const { value } = draft;
  // Kept in the draft: the next dialog opens with it, so nothing typed is lost to a refusal.
  for (const field of value.ask) {
    const typed = readTyped(interaction, field);
    if (typed === undefined) delete value.typed[field.field];
    else value.typed[field.field] = typed;
  }
  const options = await loadOptions(ctx, guild);
  const check = checkSubmission({ ...value.candidate, ...value.typed }, options);
  if (!check.ok) {
    await showPreview(
      interaction,
      `Nothing was sent: this submission would be refused. Correct it with Fill in (it keeps what you typed):\n• ${check.problems.join('\n• ')}`,
      [],
      fillButtons(draftId),
    );
    return;
  }
  if (!ctx.appDrafts.take(draftId)) throw new UserFacingError(ALREADY_ANSWERED);
  const file = value.file ? await fetchGivenFile(ctx, options, value.file) : null;
  await showSubmissionPreview(
    interaction,
    ctx,
    draft.guildId,
    { kind: 'submission', appId: value.appId, appName: value.appName, submission: check.submission, file },
    [...value.sources, { label: FROM_DIALOG, fields: Object.keys(value.typed) }],
  );
}

function fillButtons(draftId: string) {
  return confirmButtons(draftId, { action: FILL_ACTION, label: 'Fill in' }, { action: CANCEL_ACTION, label: 'Cancel' });
}

/** One input of the dialog: a text input, or a select of the values GET /options gives. */
function buildInput(field: AskedField, typed: unknown): LabelBuilder {
  const label = new LabelBuilder().setLabel(field.label);
  if (field.style === 'select' || field.style === 'multi') {
    const chosen = Array.isArray(typed) ? typed : [typed];
    const choices = field.choices ?? [];
    return label.setStringSelectMenuComponent(
      new StringSelectMenuBuilder()
        .setCustomId(field.field)
        .setRequired(field.required)
        .setMinValues(field.required ? 1 : 0)
        .setMaxValues(field.style === 'multi' ? choices.length : 1)
        .addOptions(
          choices.map((choice) =>
            new StringSelectMenuOptionBuilder()
              .setLabel(truncateText(choice, 100))
              .setValue(choice)
              .setDefault(chosen.includes(choice)),
          ),
        ),
    );
  }
  const input = new TextInputBuilder()
    .setCustomId(field.field)
    .setStyle(field.style === 'paragraph' ? TextInputStyle.Paragraph : TextInputStyle.Short)
    .setRequired(field.required);
  if (field.min !== undefined) input.setMinLength(field.min);
  if (field.max !== undefined) input.setMaxLength(field.max);
  if (typeof typed === 'string' && typed !== '') input.setValue(typed);
  return label.setTextInputComponent(input);
}

/** What the dialog got for one field; undefined for an optional field left empty. */
function readTyped(interaction: ModalSubmitInteraction, field: AskedField): string | string[] | undefined {
  if (field.style === 'select' || field.style === 'multi') {
    const values = [...interaction.fields.getStringSelectValues(field.field)];
    if (values.length === 0) return undefined;
    return field.style === 'multi' ? values : values[0];
  }
  const text = interaction.fields.getTextInputValue(field.field).trim();
  return text === '' ? undefined : text;
}
