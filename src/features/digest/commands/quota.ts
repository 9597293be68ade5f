import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { Command, CommandBasics } from '../../../discord/command.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import type { DigestDeps } from '../feature.js';

/** What /quota is given. */
export type QuotaCommandDeps = CommandBasics & DigestDeps;

/** A week has 168 hours; a month at most 744. */
const MOST_HOURS = { week: 168, month: 744 } as const;

/** /quota set|clear|list: the hours on shift each member of a role is to reach, shown in the weekly digest. */
export const quotaCommand: Command<QuotaCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('quota')
    .setDescription('Hours on shift a role is to reach, checked in the weekly digest')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('set')
        .setDescription("Set a role's quota (replaces the one it has)")
        .addRoleOption((option) => option.setName('role').setDescription('Whose members').setRequired(true))
        .addIntegerOption((option) =>
          option.setName('hours').setDescription('Hours on shift').setRequired(true).setMinValue(1).setMaxValue(744),
        )
        .addStringOption((option) =>
          option
            .setName('per')
            .setDescription('Per week, or per calendar month (UTC)')
            .setRequired(true)
            .addChoices({ name: 'week', value: 'week' }, { name: 'month', value: 'month' }),
        )
        .addIntegerOption((option) =>
          option
            .setName('reduced')
            .setDescription('Hours for a member on approved reduced activity (/leave); none: they are excused')
            .setMinValue(0)
            .setMaxValue(744),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('clear')
        .setDescription("Remove a role's quota")
        .addRoleOption((option) => option.setName('role').setDescription('Whose quota').setRequired(true)),
    )
    .addSubcommand((sub) => sub.setName('list').setDescription("This server's quotas")),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'set': {
        const role = interaction.options.getRole('role', true);
        const hours = interaction.options.getInteger('hours', true);
        const per = interaction.options.getString('per', true) === 'month' ? 'month' : 'week';
        if (role.id === guildId) throw new UserFacingError('Choose a role other than @everyone.');
        if (hours > MOST_HOURS[per]) {
          throw new UserFacingError(`A ${per} has at most ${MOST_HOURS[per]} hours: choose fewer. Nothing was saved.`);
        }
        const reduced = interaction.options.getInteger('reduced');
        if (reduced !== null && (reduced < 0 || reduced >= hours)) {
          throw new UserFacingError(
            `The reduced quota is 0 to ${hours - 1} hours (below the quota). Nothing was saved.`,
          );
        }
        await ctx.digests.setQuota(guildId, { roleId: role.id, hours, per });
        // A set replaces the quota it had, its reduced hours too.
        await ctx.reducedQuotas.setReducedQuota(guildId, role.id, reduced);
        return replyEphemeral(
          interaction,
          `Members of <@&${role.id}> are to be on shift ${hours} h a ${per}; the weekly digest (/digest set) says who met it. ` +
            'A member on approved leave is excused; ' +
            (reduced === null
              ? 'one on reduced activity too (set reduced: to give them hours of their own).'
              : `one on reduced activity is to reach ${reduced} h.`),
        );
      }
      case 'clear': {
        const role = interaction.options.getRole('role', true);
        const cleared = await ctx.digests.clearQuota(guildId, role.id);
        await ctx.reducedQuotas.setReducedQuota(guildId, role.id, null);
        return replyEphemeral(
          interaction,
          cleared ? `<@&${role.id}> has no quota any more.` : `<@&${role.id}> had no quota; nothing changed.`,
        );
      }
      case 'list': {
        const quotas = await ctx.digests.quotasOf(guildId);
        const reduced = await ctx.reducedQuotas.reducedQuotasOf(guildId);
        return replyEphemeral(
          interaction,
          quotas.length === 0
            ? 'No quotas yet: set one with /quota set.'
            : quotas
                .map(
                  (q) =>
                    `<@&${q.roleId}>: ${q.hours} h a ${q.per}` +
                    (reduced.has(q.roleId) ? ` (${reduced.get(q.roleId) ?? 0} h on reduced activity)` : ''),
                )
                .join('\n'),
        );
      }
      default:
        throw new Error(`unknown /quota subcommand ${subcommand}`);
    }
  },

  readOnly: (subcommand) => subcommand === 'list',
};
