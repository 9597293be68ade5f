import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';

import { bridgeVersion } from '../base/version.js';
import type { Command } from '../discord/command.js';
import { replyEphemeral } from '../discord/reply.js';
import { requireAdmin } from '../discord/require-admin.js';
import type { CommandBasics } from '../features/feature.js';
import { describeHealth } from '../features/health/describe-health.js';
import { describeStatus } from '../features/health/describe-status.js';
import { readRecoveryReport } from '../features/health/downtime-recovery.js';
import type { HealthDeps } from '../features/health/feature.js';
import { describeReleaseStatus } from '../features/releases/describe-releases.js';
import type { ReleasesDeps } from '../features/releases/feature.js';
import { describeSealing } from '../features/webhooks/describe-sealing.js';
import type { WebhooksDeps } from '../features/webhooks/feature.js';

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
      [
        ...(await describeStatus(guildId, hooks, ctx, releases)),
        sealing,
        ...health,
        // What an admin quotes to the host, and the host finds in CHANGELOG.md.
        `Bot version: ${bridgeVersion()}.`,
      ].join('\n'),
    );
  },

  readOnly: () => true,
};
