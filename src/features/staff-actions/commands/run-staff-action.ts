import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { CommandBasics } from '../../../discord/command.js';
import { readFeedChannel, requirePostableChannel } from '../../../discord/feed-channel.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import { auditLookup, memberSubject } from '../../record/index.js';
import type { StaffActionsDeps } from '../deps.js';
import { giveInfraction, voidInfraction } from '../infractions.js';
import { describeLadder, parseLadder, setLadder } from '../ladder.js';
import { readMemberHistory, renderMemberHistory } from '../member-history.js';
import { changeRank } from '../rank-changes.js';
import { requireStaffManager } from '../staff-manager.js';
import { INFRACTION_TYPES, type InfractionType } from '../store/staff-actions-store.js';

/** What the staff actions' part of /staff is given. */
export type StaffActionCommandDeps = CommandBasics & StaffActionsDeps;

const NO_MENTIONS = { parse: [] };

/**
 * Runs one of the staff actions' subcommands of /staff (STAFF_ACTION_SUBCOMMANDS). Every answer is ephemeral and
 * deferred first: each reads Discord (who acts, on whom) before it acts.
 */
export async function runStaffAction(
  interaction: ChatInputCommandInteraction,
  ctx: StaffActionCommandDeps,
  subcommand: string,
): Promise<void> {
  const guildId = interaction.guildId;
  if (!guildId) throw new UserFacingError('Use this command in a server, not in direct messages.');
  // Admin-only parts are refused before anything else, then the rest deferred (Discord waits 3 s for an answer).
  if (subcommand === 'ranks' || subcommand === 'setup') requireAdmin(interaction);
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const answer = (content: string) => interaction.editReply({ content, allowedMentions: NO_MENTIONS });
  const managerId = interaction.user.id;
  switch (subcommand) {
    case 'infraction':
      return void (await answer(
        await giveInfraction(ctx, {
          guildId,
          requestId: interaction.id,
          managerId,
          memberId: interaction.options.getUser('member', true).id,
          type: infractionType(interaction.options.getString('type', true)),
          reason: interaction.options.getString('reason', true),
          evidence: interaction.options.getString('evidence'),
          expiresInDays: interaction.options.getInteger('expires'),
        }),
      ));
    case 'infraction-void':
      return void (await answer(
        await voidInfraction(ctx, {
          guildId,
          managerId,
          number: interaction.options.getInteger('number', true),
          reason: interaction.options.getString('reason', true),
        }),
      ));
    case 'promote':
    case 'demote':
      return void (await answer(
        await changeRank(ctx, {
          guildId,
          requestId: interaction.id,
          managerId,
          memberId: interaction.options.getUser('member', true).id,
          direction: subcommand,
          toRoleId: interaction.options.getRole('to', true).id,
          reason: interaction.options.getString('reason'),
        }),
      ));
    case 'history': {
      const settings = await ctx.staffActions.settingsOf(guildId);
      await requireStaffManager(ctx.client, guildId, managerId, settings);
      const memberId = interaction.options.getUser('member', true).id;
      // A lookup about a member, as /staff stats is: its line is written before anything is read or shown.
      await auditLookup(
        ctx.audit,
        { guildId, userId: managerId },
        ctx.clock(),
        `/staff history member:<@${memberId}>`,
        memberSubject(memberId),
      );
      const history = await readMemberHistory(ctx, guildId, memberId, ctx.clock());
      return void (await interaction.editReply({
        embeds: renderMemberHistory(memberId, history),
        allowedMentions: NO_MENTIONS,
      }));
    }
    case 'ranks': {
      const typed = interaction.options.getString('roles');
      if (typed === null) {
        const ladder = await ctx.staffActions.ranksOf(guildId);
        return void (await answer(
          ladder.length === 0
            ? 'There is no rank ladder yet: set one with /staff ranks roles:@Lowest @Next …'
            : `The rank ladder, lowest first: ${describeLadder(ladder)}.`,
        ));
      }
      return void (await answer(await setLadder(ctx, guildId, managerId, parseLadder(typed))));
    }
    case 'setup':
      return void (await answer(await setUp(interaction, ctx, guildId)));
    default:
      throw new Error(`unknown /staff subcommand ${subcommand}`);
  }
}

/** /staff setup: the staff-manager role and the staff-log channel (each changed only when given). */
async function setUp(
  interaction: ChatInputCommandInteraction,
  ctx: StaffActionCommandDeps,
  guildId: string,
): Promise<string> {
  const role = interaction.options.getRole('manager-role');
  if (role?.id === guildId) throw new UserFacingError('Choose a staff-manager role other than @everyone.');
  if (interaction.options.getChannel('log-channel') !== null) {
    const channel = await readFeedChannel(interaction, ctx.client, guildId, 'log-channel');
    // Checked now, not at the first card: View Channel, Send Messages and Embed Links, named if missing.
    await requirePostableChannel(channel);
    await ctx.staffActions.setLogChannel(guildId, channel.id);
  }
  if (role) await ctx.staffActions.setManagerRole(guildId, role.id);
  const settings = await ctx.staffActions.settingsOf(guildId);
  const who =
    settings.managerRoleId === null
      ? 'Only members with Manage Server take staff actions (set manager-role to let a role act).'
      : `Members with <@&${settings.managerRoleId}> (and Manage Server) take staff actions.`;
  const where =
    settings.logChannelId === null
      ? 'No staff-log channel: infractions and promotions are recorded without a card.'
      : `Their cards go to <#${settings.logChannelId}>.`;
  return `${who} ${where}`;
}

function infractionType(typed: string): InfractionType {
  const found = INFRACTION_TYPES.find((type) => type === typed);
  if (!found) throw new UserFacingError(`type is one of ${INFRACTION_TYPES.join(', ')}.`);
  return found;
}
