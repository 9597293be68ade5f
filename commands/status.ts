import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';

import { describeSealing } from '../src/admin/describe-sealing.js';
import { describeStatus } from '../src/admin/describe-status.js';
import { requireAdmin } from '../src/admin/require-admin.js';
import { describeReleaseStatus } from '../src/apps/describe-releases.js';
import type { Command } from '../src/discord/command.js';
import { replyEphemeral } from '../src/discord/reply.js';
import type { CommandBasics } from '../src/features/feature.js';
import type { HealthDeps } from '../src/features/health/feature.js';
import type { ReleasesDeps } from '../src/features/releases/feature.js';
import type { WebhooksDeps } from '../src/features/webhooks/feature.js';
import { describeHealth } from '../src/health/describe-health.js';
import { readRecoveryReport } from '../src/health/downtime-recovery.js';

/** What /status is given: its feature's dependencies, no more. */
export type StatusDeps = CommandBasics &
  HealthDeps &
  Pick<WebhooksDeps, 'hooks' | 'guilds' | 'secrets' | 'activity'> &
  Pick<ReleasesDeps, 'appRecords'>;

/** /status: what an admin needs to see whether the feed flows, and if not, why. */
export const status: Command<StatusDeps> = {
  data: new SlashCommandBuilder()
    .setName('status')
    .setDescription("This server's feed and release cards: webhooks, deliveries, broken routes, last poll")
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const hooks = await ctx.hooks.listForGuild(guildId);
    const appGuild = await ctx.appRecords.readGuild(guildId);
    const releases = describeReleaseStatus(appGuild, ctx.secrets.encrypts);
    const sealing = describeSealing({
      webhookSecrets: hooks.map((hook) => hook.secret),
      serverKey: (await ctx.guilds.get(guildId)).serverKey,
      developerKey: appGuild.developerKey,
    });
    const health = describeHealth(
      await ctx.health.settings.get(guildId),
      ctx.health.monitor.openIn(guildId),
      await readRecoveryReport(ctx.health.records, guildId),
    );
    await replyEphemeral(
      interaction,
      [...(await describeStatus(guildId, hooks, ctx, releases)), sealing, ...health].join('\n'),
    );
  },

  readOnly: () => true,
};
