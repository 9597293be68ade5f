import { ChannelType, SlashCommandSubcommandBuilder } from 'discord.js';

import { MAX_EXPIRES_DAYS, MAX_INFRACTION_TEXT } from '../infractions.js';
import { INFRACTION_TYPES } from '../store/staff-actions-store.js';

const memberOption = (description: string) => (sub: SlashCommandSubcommandBuilder) =>
  sub.addUserOption((option) => option.setName('member').setDescription(description).setRequired(true));

const rankChange = (name: 'promote' | 'demote', description: string) =>
  memberOption('Whom')(new SlashCommandSubcommandBuilder().setName(name).setDescription(description))
    .addRoleOption((option) => option.setName('to').setDescription('The rank role of the ladder').setRequired(true))
    .addStringOption((option) => option.setName('reason').setDescription('Why').setMaxLength(MAX_INFRACTION_TEXT));

/** The staff actions' subcommands of the shared /staff (src/commands/staff.ts adds them). */
export const STAFF_ACTION_SUBCOMMANDS: readonly SlashCommandSubcommandBuilder[] = [
  memberOption('Whom')(
    new SlashCommandSubcommandBuilder().setName('infraction').setDescription('Record an infraction of a staff member'),
  )
    .addStringOption((option) =>
      option
        .setName('type')
        .setDescription('What kind')
        .setRequired(true)
        .addChoices(...INFRACTION_TYPES.map((type) => ({ name: type, value: type }))),
    )
    .addStringOption((option) =>
      option.setName('reason').setDescription('Why').setRequired(true).setMaxLength(MAX_INFRACTION_TEXT),
    )
    .addStringOption((option) =>
      option.setName('evidence').setDescription('Links or notes').setMaxLength(MAX_INFRACTION_TEXT),
    )
    .addIntegerOption((option) =>
      option
        .setName('expires')
        .setDescription('Days until it stops counting (a strike: 90 by default)')
        .setMinValue(1)
        .setMaxValue(MAX_EXPIRES_DAYS),
    ),
  new SlashCommandSubcommandBuilder()
    .setName('infraction-void')
    .setDescription('Void an infraction: it stays in the history, struck through, with who and why')
    .addIntegerOption((option) =>
      option.setName('number').setDescription("The infraction's number (#)").setRequired(true).setMinValue(1),
    )
    .addStringOption((option) =>
      option.setName('reason').setDescription('Why').setRequired(true).setMaxLength(MAX_INFRACTION_TEXT),
    ),
  memberOption('Whom')(
    new SlashCommandSubcommandBuilder()
      .setName('history')
      .setDescription("A staff member's infractions, promotions and record by month"),
  ),
  rankChange('promote', 'Move a staff member up the rank ladder (changes their rank role)'),
  rankChange('demote', 'Move a staff member down the rank ladder (changes their rank role)'),
  new SlashCommandSubcommandBuilder()
    .setName('ranks')
    .setDescription('Set the ladder of rank roles, lowest first; leave empty to show it')
    .addStringOption((option) =>
      option.setName('roles').setDescription('The rank roles, lowest first: @Trainee @Moderator …').setMaxLength(1_000),
    ),
  new SlashCommandSubcommandBuilder()
    .setName('setup')
    .setDescription('Who may take staff actions, and where their cards go; leave both empty to show')
    .addRoleOption((option) => option.setName('manager-role').setDescription('The staff-manager role'))
    .addChannelOption((option) =>
      option
        .setName('log-channel')
        .setDescription('The staff-log channel for infraction and promotion cards')
        .addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement),
    ),
];

/** Their names: what the shared /staff hands the staff actions. */
export const STAFF_ACTION_NAMES: ReadonlySet<string> = new Set(STAFF_ACTION_SUBCOMMANDS.map((sub) => sub.name));
