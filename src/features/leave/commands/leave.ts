import { ChannelType, InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { Command, CommandBasics } from '../../../discord/command.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { requireRecordReader } from '../../record/index.js';
import type { LeaveDeps } from '../feature.js';
import { describeState, kindName } from '../leave-card.js';
import { dayStamp, lastDayStamp, readLeaveSpan } from '../leave-dates.js';
import type { LeaveKind, LeaveRequest } from '../store/leave-store.js';
import { setChannel, setManagers, setRole } from './leave-settings.js';

/** What /leave is given. */
export type LeaveCommandDeps = CommandBasics & LeaveDeps;

/** The longest reason a request keeps. */
const REASON_MAX = 300;
/** Requests /leave list shows at most. */
const LISTED = 15;

/**
 * /leave request|list|end|cancel (staff), channel|managers|role (admins): leave of absence and reduced activity,
 * asked by a member, approved or denied by a leave manager on the request's card, started and ended by the bot.
 */
export const leaveCommand: Command<LeaveCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('leave')
    .setDescription('Leave of absence and reduced activity')
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('request')
        .setDescription('Ask for leave (days in the server’s time zone, both included)')
        .addStringOption((option) =>
          option.setName('from').setDescription('First day, like 2026-12-24').setRequired(true).setMaxLength(10),
        )
        .addStringOption((option) =>
          option.setName('to').setDescription('Last day, like 2026-12-31').setRequired(true).setMaxLength(10),
        )
        .addStringOption((option) =>
          option.setName('reason').setDescription('Why').setRequired(true).setMaxLength(REASON_MAX),
        )
        .addStringOption((option) =>
          option
            .setName('type')
            .setDescription('Away (leave, the default) or around less (reduced activity)')
            .addChoices({ name: 'leave of absence', value: 'leave' }, { name: 'reduced activity', value: 'reduced' }),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('list')
        .setDescription('Requests pending and leave to come; a member’s own requests with member:')
        .addUserOption((option) => option.setName('member').setDescription('Whose requests')),
    )
    .addSubcommand((sub) => sub.setName('end').setDescription('Come back early: your leave under way ends now'))
    .addSubcommand((sub) =>
      sub
        .setName('cancel')
        .setDescription('Cancel your request (pending, or approved and not started)')
        .addIntegerOption((option) => option.setName('number').setDescription('Its number (default: your latest)')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('channel')
        .setDescription('Admins: where requests are posted for the leave managers; empty to close requests')
        .addChannelOption((option) =>
          option
            .setName('channel')
            .setDescription('The requests’ channel')
            .addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement),
        )
        .addStringOption((option) =>
          option.setName('timezone').setDescription('The zone dates are read in, like Europe/Berlin (default UTC)'),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('managers')
        .setDescription('Admins: the role whose members approve and deny requests')
        .addRoleOption((option) => option.setName('role').setDescription('The leave managers').setRequired(true)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('role')
        .setDescription('Admins: a role given for a leave’s duration; empty to stop')
        .addRoleOption((option) => option.setName('role').setDescription('The leave role')),
    ),

  async execute(interaction, ctx) {
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'request':
        return request(interaction, ctx);
      case 'list':
        return list(interaction, ctx);
      case 'end':
        return endLeave(interaction, ctx);
      case 'cancel':
        return cancel(interaction, ctx);
      case 'channel':
        return setChannel(interaction, ctx);
      case 'managers':
        return setManagers(interaction, ctx);
      case 'role':
        return setRole(interaction, ctx);
      default:
        throw new Error(`unknown /leave subcommand ${subcommand}`);
    }
  },

  readOnly: (subcommand) => subcommand === 'list',
};

async function request(interaction: ChatInputCommandInteraction, ctx: LeaveCommandDeps): Promise<void> {
  // Staff ask for leave: the record's staff role (or Manage Server).
  const guildId = await requireRecordReader(interaction, ctx.community);
  const settings = await ctx.leave.settingsOf(guildId);
  if (settings.channelId === null) {
    throw new UserFacingError('Leave requests are not open here: an admin chooses their channel with /leave channel.');
  }
  const now = ctx.clock();
  const span = readLeaveSpan(
    interaction.options.getString('from', true),
    interaction.options.getString('to', true),
    settings.timeZone,
    now,
  );
  const reason = interaction.options.getString('reason', true).trim();
  if (reason.length === 0 || reason.length > REASON_MAX) {
    throw new UserFacingError(`The reason is 1 to ${REASON_MAX} characters. Nothing was saved.`);
  }
  const kind: LeaveKind = interaction.options.getString('type') === 'reduced' ? 'reduced' : 'leave';
  const memberId = interaction.user.id;
  const added = await ctx.leave.addRequest(guildId, {
    memberId,
    kind,
    startsAt: span.startsAt,
    endsAt: span.endsAt,
    reason,
    askedAt: now,
  });
  if (added.kind === 'closed') {
    throw new UserFacingError('Leave requests were just closed here: an admin opens them with /leave channel.');
  }
  if (added.kind === 'overlaps') {
    const [other] = await ctx.leave.overlapping(guildId, memberId, span.startsAt, span.endsAt);
    throw new UserFacingError(
      other
        ? `Your request #${other.number} (${dayStamp(other.startsAt)} to ${lastDayStamp(other.endsAt)}, ` +
            `${other.state}) overlaps these days: cancel it with /leave cancel first, or choose other days. Nothing was saved.`
        : 'Another request of yours overlaps these days. Nothing was saved.',
    );
  }
  const stored = added.request;
  ctx.requesters.keep(guildId, stored.number, interaction);
  ctx.leaveChanged(guildId);
  return replyEphemeral(
    interaction,
    `${kindName(stored)} request #${stored.number} (${dayStamp(stored.startsAt)} to ${lastDayStamp(stored.endsAt)}, ` +
      `${span.days} day${span.days === 1 ? '' : 's'}) is posted in <#${settings.channelId}> for the leave managers. ` +
      'You will hear when it is decided.',
  );
}

async function list(interaction: ChatInputCommandInteraction, ctx: LeaveCommandDeps): Promise<void> {
  const guildId = await requireRecordReader(interaction, ctx.community);
  const member = interaction.options.getUser('member');
  const now = ctx.clock();
  if (member !== null) {
    const requests = await ctx.leave.requestsOf(guildId, member.id, LISTED);
    if (requests.length === 0) return replyEphemeral(interaction, `<@${member.id}> has no leave requests.`);
    return replyEphemeral(
      interaction,
      [`Leave requests of <@${member.id}>, the latest first:`, ...requests.map((r) => listLine(r, now))].join('\n'),
    );
  }
  const open = await ctx.leave.openRequests(guildId, now, LISTED);
  if (open.length === 0)
    return replyEphemeral(interaction, 'No requests are pending, and nobody is on leave or about to be.');
  return replyEphemeral(
    interaction,
    [
      'Requests pending, leave under way and to come:',
      ...open.map((r) => `${listLine(r, now)} · <@${r.memberId}>`),
    ].join('\n'),
  );
}

function listLine(request: LeaveRequest, now: number): string {
  return (
    `**#${request.number}** ${kindName(request)}, ${dayStamp(request.startsAt)} to ` +
    `${lastDayStamp(request.plannedEnd)}: ${describeState(request, now)}`
  );
}

async function endLeave(interaction: ChatInputCommandInteraction, ctx: LeaveCommandDeps): Promise<void> {
  const guildId = await requireRecordReader(interaction, ctx.community);
  const now = ctx.clock();
  const [under] = (await ctx.leave.memberLeaveIn(guildId, interaction.user.id, now, now + 1)) ?? [];
  if (!under || !(await ctx.leave.endEarly(guildId, under.number, now))) {
    throw new UserFacingError(
      'You have no leave under way to end. (A leave not started yet is cancelled with /leave cancel.)',
    );
  }
  ctx.leaveChanged(guildId);
  return replyEphemeral(
    interaction,
    `Welcome back: your ${under.kind === 'leave' ? 'leave' : 'reduced activity'} (#${under.number}) ended now.`,
  );
}

async function cancel(interaction: ChatInputCommandInteraction, ctx: LeaveCommandDeps): Promise<void> {
  const guildId = await requireRecordReader(interaction, ctx.community);
  const now = ctx.clock();
  const memberId = interaction.user.id;
  const number = interaction.options.getInteger('number');
  const mine = await ctx.leave.requestsOf(guildId, memberId, LISTED);
  const chosen =
    number === null
      ? mine.find((r) => r.state === 'pending' || (r.state === 'approved' && r.startsAt > now))
      : mine.find((r) => r.number === number);
  if (!chosen) {
    throw new UserFacingError(number === null ? 'You have no request to cancel.' : `You have no request #${number}.`);
  }
  if (!(await ctx.leave.cancel(guildId, chosen.number, now))) {
    throw new UserFacingError(
      `Request #${chosen.number} is ${describeState(chosen, now).toLowerCase()}: only a pending request, or leave not ` +
        'started yet, can be cancelled (a leave under way ends with /leave end).',
    );
  }
  ctx.leaveChanged(guildId);
  return replyEphemeral(interaction, `Request #${chosen.number} is cancelled.`);
}
