import type { ChatInputCommandInteraction } from 'discord.js';

import { checkSubmission, prefillFromVersion, UPLOAD_PLACEHOLDER } from '../../src/apps/build-submission.js';
import { formatVersionName } from '../../src/apps/release-card.js';
import { requireReleaseManager } from '../../src/apps/release-managers.js';
import { submissionsLeft } from '../../src/apps/submission-quota.js';
import { deferEphemeral } from '../../src/discord/reply.js';
import { UserFacingError } from '../../src/errors.js';
import type { CommandContext } from '../context.js';
import { askService, loadOptions, resolveApp } from './shared.js';
import { fetchGivenFile, showSubmissionPreview } from './submission-preview.js';

/** Longest version label and change note accepted here; the service documents none, Discord allows 6000. */
const MAX_VERSION = 64;
const MAX_WHATS_NEW = 4000;

/**
 * /app submit app version whats-new [file] [repo-ref]: a new version with every other field taken over from
 * the app's latest version, checked before anything is sent (description length, enumerated fields against
 * GET /options, the file's size against the upload limit and against what Discord delivered), then shown with
 * Submit and Cancel. Only release managers; refused before any call for anyone else.
 */
export async function prepareSubmission(
  interaction: ChatInputCommandInteraction,
  ctx: CommandContext,
  guildId: string,
): Promise<void> {
  const guild = await ctx.appRecords.readGuild(guildId);
  requireReleaseManager(interaction, guild);
  const version = interaction.options.getString('version', true).trim();
  const whatsNew = interaction.options.getString('whats-new', true).trim();
  const repoRef = interaction.options.getString('repo-ref')?.trim();
  const attachment = interaction.options.getAttachment('file');
  if (version === '' || version.length > MAX_VERSION) {
    throw new UserFacingError(`Give a version label of 1 to ${MAX_VERSION} characters.`);
  }
  if (whatsNew === '' || whatsNew.length > MAX_WHATS_NEW) {
    throw new UserFacingError(`Give a change note (whats-new) of 1 to ${MAX_WHATS_NEW} characters.`);
  }
  if (submissionsLeft(guild, ctx.clock()) === 0) {
    throw new UserFacingError(
      'This server has sent 10 submissions in the last hour, the most the service allows: try again later.',
    );
  }
  await deferEphemeral(interaction);

  const app = await resolveApp(ctx, guild, interaction.options.getString('app', true));
  const detail = await askService(ctx, guild, 'read the app', (caller) => ctx.developer.getApp(caller, app.id));
  const waiting = detail.versions.find((candidate) => candidate.pending);
  if (waiting) {
    throw new UserFacingError(
      `${formatVersionName(detail.name, waiting.label)} is still waiting for review: withdraw it with /app withdraw first, or wait for its outcome.`,
    );
  }
  const prefill = prefillFromVersion(detail.versions.at(-1));
  const options = await loadOptions(ctx, guild);
  const candidate: Record<string, unknown> = { ...prefill, version, whatsNew };
  if (repoRef) candidate['repoRef'] = repoRef;
  if (attachment) candidate['files'] = [UPLOAD_PLACEHOLDER];
  candidate['name'] ??= detail.name;
  const check = checkSubmission(candidate, options);
  if (!check.ok) {
    throw new UserFacingError(
      `This submission would be refused, so nothing was sent. Fix it in the developer portal (the other fields come from the latest version) or in the options:\n• ${check.problems.join('\n• ')}`,
    );
  }
  const file = attachment
    ? await fetchGivenFile(ctx, options, { name: attachment.name, url: attachment.url, size: attachment.size })
    : null;
  await showSubmissionPreview(
    interaction,
    ctx,
    guildId,
    { kind: 'submission', appId: app.id, appName: detail.name, submission: check.submission, file },
    Object.keys(prefill),
  );
}
