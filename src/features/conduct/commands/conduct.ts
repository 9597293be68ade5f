import {
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type ChatInputCommandInteraction,
} from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { Command, CommandBasics } from '../../../discord/command.js';
import { FEED_CHANNEL_TYPES, readFeedChannel, requirePostableChannel } from '../../../discord/feed-channel.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import type { ConductDeps } from '../feature.js';
import {
  BURST_COUNT_RANGE,
  BURST_MINUTES_RANGE,
  BURST_RULES,
  describeRule,
  RULE_NAMES,
  type RuleName,
} from '../rules.js';

/** What /conduct is given. */
export type ConductCommandDeps = CommandBasics & ConductDeps;

/**
 * /conduct channel|role|set|show: where the conduct guard's alerts go, which role sees and answers them, and its
 * rules (each on or off, the bursts with a count and a window).
 */
export const conductCommand: Command<ConductCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('conduct')
    .setDescription('The conduct guard: alerts when what staff do looks wrong')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('channel')
        .setDescription('Where conduct alerts are posted; leave empty to stop the guard')
        .addChannelOption((option) =>
          option
            .setName('channel')
            .setDescription('A channel only the chosen role (and admins) can see')
            .addChannelTypes(...FEED_CHANNEL_TYPES),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('role')
        .setDescription('The role pinged by conduct alerts, whose members may acknowledge or dismiss them')
        .addRoleOption((option) => option.setName('role').setDescription('Leave empty: Manage Server only')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('set')
        .setDescription('Turn a rule on or off, and set a burst’s count and window')
        .addStringOption((option) =>
          option
            .setName('rule')
            .setDescription('The rule')
            .setRequired(true)
            .addChoices(...RULE_NAMES.map((rule) => ({ name: rule, value: rule }))),
        )
        .addBooleanOption((option) => option.setName('on').setDescription('On or off').setRequired(true))
        .addIntegerOption((option) =>
          option
            .setName('count')
            .setDescription(`bans, voids: how many make a burst (${BURST_COUNT_RANGE.min}–${BURST_COUNT_RANGE.max})`)
            .setMinValue(BURST_COUNT_RANGE.min)
            .setMaxValue(BURST_COUNT_RANGE.max),
        )
        .addIntegerOption((option) =>
          option
            .setName('minutes')
            .setDescription(
              `bans, voids: within how many minutes (${BURST_MINUTES_RANGE.min}–${BURST_MINUTES_RANGE.max})`,
            )
            .setMinValue(BURST_MINUTES_RANGE.min)
            .setMaxValue(BURST_MINUTES_RANGE.max),
        ),
    )
    .addSubcommand((sub) => sub.setName('show').setDescription('The guard’s channel, role and rules')),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'channel':
        return setChannel(interaction, ctx, guildId);
      case 'role':
        return setRole(interaction, ctx, guildId);
      case 'set':
        return setRule(interaction, ctx, guildId);
      case 'show':
        return show(interaction, ctx, guildId);
      default:
        throw new Error(`unknown /conduct subcommand ${subcommand}`);
    }
  },

  readOnly: (subcommand) => subcommand === 'show',
};

async function setChannel(interaction: ChatInputCommandInteraction, ctx: ConductCommandDeps, guildId: string) {
  if (interaction.options.getChannel('channel') === null) {
    const { channelId } = await ctx.conduct.settingsOf(guildId);
    await ctx.conduct.setChannel(guildId, null);
    return replyEphemeral(
      interaction,
      channelId === null
        ? 'The conduct guard is not on.'
        : `The conduct guard is off: no more alerts in <#${channelId}>. What staff do from now on is not judged.`,
    );
  }
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  // Checked now, not at the first alert: View Channel, Send Messages and Embed Links, named if missing.
  await requirePostableChannel(channel);
  await ctx.conduct.setChannel(guildId, channel.id);
  const { roleId } = await ctx.conduct.settingsOf(guildId);
  return replyEphemeral(
    interaction,
    `Conduct alerts now go to <#${channel.id}>: one message per incident, edited as it grows. ` +
      'Make sure only the staff who oversee moderators can see that channel. ' +
      (roleId === null
        ? 'Choose the role that answers them with /conduct role (until then, Manage Server only).'
        : `<@&${roleId}> is pinged and may acknowledge or dismiss them.`),
  );
}

async function setRole(interaction: ChatInputCommandInteraction, ctx: ConductCommandDeps, guildId: string) {
  const role = interaction.options.getRole('role');
  await ctx.conduct.setRole(guildId, role?.id ?? null);
  return replyEphemeral(
    interaction,
    role === null
      ? 'No role is pinged by conduct alerts; members with Manage Server may acknowledge or dismiss them.'
      : `Conduct alerts ping <@&${role.id}>, whose members may acknowledge or dismiss them (never an alert about ` +
          'themselves). Alerts already posted keep their ping.',
  );
}

async function setRule(interaction: ChatInputCommandInteraction, ctx: ConductCommandDeps, guildId: string) {
  const rule = RULE_NAMES.find((name) => name === interaction.options.getString('rule', true));
  if (rule === undefined) throw new UserFacingError(`The rules are ${RULE_NAMES.join(', ')}. Nothing was saved.`);
  const on = interaction.options.getBoolean('on', true);
  const count = interaction.options.getInteger('count');
  const minutes = interaction.options.getInteger('minutes');
  checkBurstOptions(rule, count, minutes);
  const { rules } = await ctx.conduct.settingsOf(guildId);
  const current = rules[rule];
  const setting = { on, count: count ?? current.count, minutes: minutes ?? current.minutes };
  await ctx.conduct.setRules(guildId, { ...rules, [rule]: setting });
  return replyEphemeral(interaction, `Saved: ${describeRule(rule, setting)}. It applies to what staff do from now on.`);
}

/** A count or window given to a rule that is not a burst, or out of range, is refused: nothing saved. */
function checkBurstOptions(rule: RuleName, count: number | null, minutes: number | null): void {
  if (!BURST_RULES.has(rule) && (count !== null || minutes !== null)) {
    throw new UserFacingError(`\`${rule}\` has no count or minutes (only bans and voids do). Nothing was saved.`);
  }
  if (count !== null && (count < BURST_COUNT_RANGE.min || count > BURST_COUNT_RANGE.max)) {
    throw new UserFacingError(`count is ${BURST_COUNT_RANGE.min} to ${BURST_COUNT_RANGE.max}. Nothing was saved.`);
  }
  if (minutes !== null && (minutes < BURST_MINUTES_RANGE.min || minutes > BURST_MINUTES_RANGE.max)) {
    throw new UserFacingError(
      `minutes is ${BURST_MINUTES_RANGE.min} to ${BURST_MINUTES_RANGE.max}. Nothing was saved.`,
    );
  }
}

async function show(interaction: ChatInputCommandInteraction, ctx: ConductCommandDeps, guildId: string) {
  const { channelId, roleId, rules } = await ctx.conduct.settingsOf(guildId);
  const lines = [
    channelId === null ? 'Alerts: off (choose a channel with /conduct channel).' : `Alerts: <#${channelId}>`,
    roleId === null ? 'Answered by: members with Manage Server' : `Answered by: <@&${roleId}>`,
    '',
    ...RULE_NAMES.map((rule) => `• ${describeRule(rule, rules[rule])}`),
  ];
  return replyEphemeral(interaction, lines.join('\n'));
}
