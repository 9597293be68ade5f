import type { APIEmbed, RepliableInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { formatName, formatUserText } from '../../../../embeds/format.js';
import { fitMessageToLimits } from '../../../../embeds/limits.js';
import { DEFAULT_MAX_UPLOAD_BYTES, type DeveloperOptions } from '../../../../upstream/developer-schemas.js';
import type { AppDraft, FieldSource } from '../../app-draft.js';
import { UPLOAD_PLACEHOLDER } from '../../build-submission.js';
import { formatVersionName } from '../../release-card.js';
import { submissionsLeft } from '../../submission-quota.js';
import { toUploadName } from '../../upload-name.js';
import type { AppCommandDeps } from '../app.js';
import { confirmButtons, formatBytes, showPreview } from './shared.js';

type SubmissionDraft = Extract<AppDraft, { kind: 'submission' }>;

/** The buttons of a submission preview. */
export const SEND_ACTION = 'send';
export const CANCEL_ACTION = 'cancel';

/** The file a command was given, as Discord described it. */
export interface GivenFile {
  name: string;
  url: string;
  size: number;
}

/**
 * A command's file checked before it is fetched: its name reduced to its base name and of a kind the service
 * takes, its announced size within the service's upload limit. Nothing is asked of the service.
 * @throws UserFacingError for a kind the service does not take or a file over the limit
 */
export function checkGivenFile(options: DeveloperOptions, file: GivenFile): GivenFile {
  const name = toUploadName(file.name);
  const limit = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  if (file.size > limit) {
    throw new UserFacingError(
      `The file ${name} is ${formatBytes(file.size)}, over the service's upload limit of ${formatBytes(limit)}: nothing was sent.`,
    );
  }
  return { ...file, name };
}

/**
 * Fetches a command's file after {@link checkGivenFile}; the downloader then checks that what arrived is what
 * Discord announced. Nothing is asked of the service.
 * @throws UserFacingError for a file checkGivenFile refuses, or one that did not arrive whole
 */
export async function fetchGivenFile(
  ctx: AppCommandDeps,
  options: DeveloperOptions,
  file: GivenFile,
): Promise<{ name: string; bytes: Uint8Array }> {
  const checked = checkGivenFile(options, file);
  const limit = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  return { name: checked.name, bytes: await ctx.downloadAttachment(checked, limit) };
}

/** Shows the checked submission with Submit and Cancel; nothing has been sent to the service yet. */
export async function showSubmissionPreview(
  interaction: RepliableInteraction,
  ctx: AppCommandDeps,
  guildId: string,
  draft: SubmissionDraft,
  sources: readonly FieldSource[],
): Promise<void> {
  const draftId = ctx.appDrafts.put(guildId, interaction.user.id, draft);
  const { submission, file } = draft;
  const fields = [
    { name: 'Version', value: formatName(submission.version, 100), inline: true },
    { name: 'Category', value: formatName(submission.category, 100), inline: true },
    { name: "What's new", value: formatUserText(submission.whatsNew, 1000) },
  ];
  if (file)
    fields.push({
      name: 'File',
      value: `${formatName(file.name, 200)} · ${formatBytes(file.bytes.length)}`,
      inline: false,
    });
  if (submission.repoUrl !== undefined) {
    const ref = submission.repoRef === undefined ? '' : ` @ ${formatName(submission.repoRef, 100)}`;
    fields.push({ name: 'Repository', value: `${formatName(submission.repoUrl, 300)}${ref}`, inline: false });
  }
  for (const source of sources) {
    if (source.fields.length > 0) fields.push({ name: source.label, value: source.fields.join(', '), inline: false });
  }
  const title =
    draft.appId === null
      ? `New app: ${formatName(draft.appName, 150)}`
      : formatVersionName(draft.appName, submission.version);
  const embed: APIEmbed = {
    title,
    description: formatUserText(submission.tagline, 300),
    color: 0x5865f2,
    fields,
  };
  const [fitted] = fitMessageToLimits({ embeds: [embed], allowed_mentions: { parse: [] } }).embeds;
  const left = submissionsLeft(await ctx.appDocuments.readGuild(guildId), ctx.clock());
  const upload = file ? 'Submit uploads the file, then sends the submission' : 'Submit sends the submission';
  await showPreview(
    interaction,
    `Check this submission. ${upload}; Cancel sends nothing. Submissions left this hour: ${left} of 10.`,
    fitted ? [fitted] : [],
    confirmButtons(draftId, { action: SEND_ACTION, label: 'Submit' }, { action: CANCEL_ACTION, label: 'Cancel' }),
  );
}

/** Files of a checked submission once the upload's token is known: the placeholder replaced. */
export function withUploadedToken(
  files: readonly string[] | undefined,
  token: string | undefined,
): string[] | undefined {
  if (token === undefined) return files?.filter((file) => file !== UPLOAD_PLACEHOLDER);
  return [...(files ?? []).filter((file) => file !== UPLOAD_PLACEHOLDER), token];
}
