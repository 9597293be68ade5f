import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';

import { bridgeVersion } from '../base/version.js';
import type { Command, CommandBasics } from '../discord/command.js';
import { replyEphemeral } from '../discord/reply.js';
import { requireAdmin } from '../discord/require-admin.js';
import { describeHealth, describeStatus, readRecoveryReport, type HealthDeps } from '../features/health/index.js';
import { describeReleaseStatus, type ReleasesDeps } from '../features/releases/index.js';
import { describeSealing, type WebhooksDeps } from '../features/webhooks/index.js';

/** What /status is given: the features' dependencies it reads, no more. */
export type StatusCommandDeps = CommandBasics &
  HealthDeps &
  Pick<WebhooksDeps, 'hooks' | 'guilds' | 'secrets' | 'activity'> &
  Pick<ReleasesDeps, 'appDocuments'>;

/**
 * /status: what an admin needs to see whether the feed flows, and if not, why. Shared: its lines are the webhooks'
 * (the keys' sealing), feed health's and the releases'.
 */
export const statusCommand: Command<StatusCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('status')
    .setDescription("This server's feed and release cards: webhooks, deliveries, broken routes, last poll")
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const hooks = await ctx.hooks.listForGuild(guildId);
    const appGuild = await ctx.appDocuments.readGuild(guildId);
    const releases = describeReleaseStatus(appGuild, ctx.secrets.encrypts);
    const sealing = describeSealing({
      webhookSecrets: hooks.map((hook) => hook.secret),
      serverKey: (await ctx.guilds.get(guildId)).serverKey,
      developerKey: appGuild.developerKey,
    });
    const health = describeHealth(
      await ctx.health.settings.get(guildId),
      ctx.health.monitor.openIn(guildId),
      await readRecoveryReport(ctx.health.documents, guildId),
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
