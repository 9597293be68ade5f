import type { ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { deferEphemeral } from '../../../../discord/reply.js';
import type { FieldSource } from '../../app-draft.js';
import { checkSubmission, pickKeptFields, prefillFromVersion, UPLOAD_PLACEHOLDER } from '../../build-submission.js';
import { findMissingFields } from '../../missing-fields.js';
import { formatVersionName } from '../../release-card.js';
import { requireReleaseManager } from '../../release-managers.js';
import { submissionsLeft } from '../../submission-quota.js';
import type { AppCommandDeps } from '../app.js';
import { askService, loadOptions, resolveApp } from './shared.js';
import { askForMissingFields } from './submission-fields.js';
import { checkGivenFile, fetchGivenFile, showSubmissionPreview } from './submission-preview.js';

/** Longest version label and change note accepted here; the service documents none, Discord allows 6000. */
const MAX_VERSION = 64;
const MAX_WHATS_NEW = 4000;

/** How the preview names where the fields it did not get from the command came from. */
export const FROM_VERSION = 'Taken over from the latest version';
export const FROM_LAST_SENT = 'Kept from the last submission sent from here';

/**
 * /app submit app version whats-new [file] [repo-ref]: a new version whose other fields come from the app's
 * latest version where the service shows them (the service does not document that it does, §2.3), else from
 * the last submission this bot sent for the app; a dialog asks for whatever is still missing. Everything is
 * checked before anything is sent (description length, enumerated fields against GET /options, the file's
 * name, kind and size, then what Discord delivered), then shown with Submit and Cancel. Only release managers;
 * refused before any call for anyone else.
 */
export async function prepareSubmission(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
): Promise<void> {
  const guild = await ctx.appDocuments.readGuild(guildId);
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
  const fromVersion = prefillFromVersion(detail.versions.at(-1));
  const sent = await ctx.appDocuments.readSentFields(guildId, app.id);
  // The service's version comes first: a field changed in the developer portal since wins over what was sent.
  const fromSent = Object.fromEntries(
    Object.entries(pickKeptFields(sent?.fields ?? {})).filter(([field]) => !(field in fromVersion)),
  );
  const options = await loadOptions(ctx, guild);
  const given = attachment
    ? checkGivenFile(options, { name: attachment.name, url: attachment.url, size: attachment.size })
    : null;
  const candidate: Record<string, unknown> = { ...fromSent, ...fromVersion, version, whatsNew };
  if (repoRef) candidate['repoRef'] = repoRef;
  if (given) candidate['files'] = [UPLOAD_PLACEHOLDER];
  if (fromVersion['name'] === undefined) candidate['name'] = detail.name;
  const sources: FieldSource[] = [
    { label: FROM_VERSION, fields: Object.keys(fromVersion) },
    { label: FROM_LAST_SENT, fields: Object.keys(fromSent) },
  ];

  const ask = findMissingFields(candidate, options, given !== null);
  if (ask.length > 0) {
    await askForMissingFields(interaction, ctx, guildId, {
      kind: 'submission-fields',
      appId: app.id,
      appName: detail.name,
      candidate,
      sources,
      ask,
      typed: {},
      file: given,
    });
    return;
  }
  const check = checkSubmission(candidate, options);
  if (!check.ok) {
    throw new UserFacingError(
      `This submission would be refused, so nothing was sent. Fix it in the developer portal (the other fields come from the latest version) or in the options:\n• ${check.problems.join('\n• ')}`,
    );
  }
  const file = given ? await fetchGivenFile(ctx, options, given) : null;
  await showSubmissionPreview(
    interaction,
    ctx,
    guildId,
    { kind: 'submission', appId: app.id, appName: detail.name, submission: check.submission, file },
    sources,
  );
}
