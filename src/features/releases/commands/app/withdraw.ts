import { ButtonStyle, type ButtonInteraction, type ChatInputCommandInteraction } from 'discord.js';

import { describeDiscordError } from '../../../../discord/posting/classify-discord-error.js';
import { deferEphemeral, replyEphemeral } from '../../../../discord/reply.js';
import { formatName } from '../../../../embeds/format.js';
import { formatState } from '../../describe-apps.js';
import { refreshCard } from '../../follow-app.js';
import { formatVersionName } from '../../release-card.js';
import { requireReleaseManager } from '../../release-managers.js';
import type { AppCommandDeps } from '../app.js';
import { claimDraft } from './claim-draft.js';
import { askService, confirmButtons, resolveApp, showPreview } from './shared.js';

export const WITHDRAW_ACTION = 'withdraw';
export const KEEP_ACTION = 'keep';

/**
 * /app withdraw app: names the version waiting for review and asks for confirmation; nothing is withdrawn
 * before the Withdraw click. Only release managers.
 */
export async function confirmWithdrawal(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
): Promise<void> {
  const guild = await ctx.appDocuments.readGuild(guildId);
  requireReleaseManager(interaction, guild);
  await deferEphemeral(interaction);
  const app = await resolveApp(ctx, guild, interaction.options.getString('app', true));
  const detail = await askService(ctx, guild, 'read the app', (caller) => ctx.developer.getApp(caller, app.id));
  const waiting = detail.versions.find((version) => version.pending);
  if (!waiting) {
    await replyEphemeral(
      interaction,
      `No version of **${formatName(detail.name)}** is waiting for review: nothing to withdraw.`,
    );
    return;
  }
  const draftId = ctx.appDrafts.put(guildId, interaction.user.id, {
    kind: 'withdrawal',
    appId: app.id,
    appName: detail.name,
    label: waiting.label,
  });
  await showPreview(
    interaction,
    `Withdraw **${formatVersionName(detail.name, waiting.label)}** (${formatState(waiting.state)}) from review? Its place in the review queue is lost, and sending it again counts as a new submission.`,
    [],
    confirmButtons(
      draftId,
      { action: WITHDRAW_ACTION, label: 'Withdraw', style: ButtonStyle.Danger },
      { action: KEEP_ACTION, label: 'Keep it' },
    ),
  );
}

/** Keep it: nothing is withdrawn. */
export async function keepSubmission(
  interaction: ButtonInteraction,
  ctx: AppCommandDeps,
  draftId: string,
): Promise<void> {
  await claimDraft(interaction, ctx, draftId, 'withdrawal');
  await interaction.update({ content: 'Nothing was withdrawn.', embeds: [], components: [] });
}

/**
 * Withdraw: DELETE /apps/:id/submissions/pending, then the version's release card shows who withdrew it, at
 * once, and the poller looks at the app for the service's new state.
 */
export async function withdrawSubmission(
  interaction: ButtonInteraction,
  ctx: AppCommandDeps,
  draftId: string,
): Promise<void> {
  const { guildId, value: draft } = await claimDraft(interaction, ctx, draftId, 'withdrawal');
  await interaction.deferUpdate();
  const guild = await ctx.appDocuments.readGuild(guildId);
  await askService(ctx, guild, 'withdraw the version', (caller) => ctx.developer.withdrawPending(caller, draft.appId));
  const cards = await ctx.appDocuments.updateCards(guildId, draft.appId, (current) => {
    const card = current.versions[draft.label];
    if (!card) return current;
    return {
      ...current,
      versions: { ...current.versions, [draft.label]: { ...card, withdrawnBy: interaction.user.id } },
    };
  });
  let note = '';
  if (cards.versions[draft.label]) {
    try {
      await refreshCard(
        { documents: ctx.appDocuments, poster: ctx.poster },
        guildId,
        { appId: draft.appId, appName: draft.appName },
        draft.label,
      );
      note = ' Its release card says who withdrew it.';
    } catch (error) {
      note = ` Its release card could not be edited (${describeDiscordError(error)}).`;
    }
  }
  ctx.releases.pollSoon(guildId, draft.appId);
  ctx.developerCache.apps.delete(guildId);
  await interaction.editReply({
    content: `**${formatVersionName(draft.appName, draft.label)}** was withdrawn from review.${note}`,
    embeds: [],
    components: [],
  });
}
