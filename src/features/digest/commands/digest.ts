import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import { isTimeZone } from '../../../base/time-zone.js';
import type { Command, CommandBasics } from '../../../discord/command.js';
import { FEED_CHANNEL_TYPES, findMissingPermissions, readFeedChannel } from '../../../discord/feed-channel.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import type { DigestDeps } from '../feature.js';
import { nextDigestAt, WEEKDAYS } from '../weekly-schedule.js';

/** What /digest is given. */
export type DigestCommandDeps = CommandBasics & DigestDeps;

/** What the bot needs in the digest's channel: its embed, and its chart as a file. */
const DIGEST_PERMISSIONS = [
  { bit: PermissionFlagsBits.ViewChannel, name: 'View Channel' },
  { bit: PermissionFlagsBits.SendMessages, name: 'Send Messages' },
  { bit: PermissionFlagsBits.EmbedLinks, name: 'Embed Links' },
  { bit: PermissionFlagsBits.AttachFiles, name: 'Attach Files' },
  // A digest whose answer was lost is looked for among the channel's messages before it is posted again.
  { bit: PermissionFlagsBits.ReadMessageHistory, name: 'Read Message History' },
];

/** /digest set|off|show: the weekly digest of the staff's week, posted once a week at a day and hour. */
export const digestCommand: Command<DigestCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('digest')
    .setDescription("A weekly digest of the staff's week, posted once a week")
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('set')
        .setDescription('Post the digest every week in a channel, at a day and hour')
        .addChannelOption((option) =>
          option
            .setName('channel')
            .setDescription('Where')
            .setRequired(true)
            .addChannelTypes(...FEED_CHANNEL_TYPES),
        )
        .addStringOption((option) =>
          option
            .setName('day')
            .setDescription('Which day of the week')
            .setRequired(true)
            .addChoices(...WEEKDAYS.map((day) => ({ name: day, value: day }))),
        )
        .addIntegerOption((option) =>
          option.setName('hour').setDescription('The hour, 0 to 23').setRequired(true).setMinValue(0).setMaxValue(23),
        )
        .addStringOption((option) =>
          option
            .setName('timezone')
            .setDescription('The time zone of the day and hour, e.g. Europe/Berlin (default UTC)')
            .setMaxLength(64),
        ),
    )
    .addSubcommand((sub) => sub.setName('off').setDescription('Stop posting the weekly digest'))
    .addSubcommand((sub) => sub.setName('show').setDescription('Where and when the digest is posted')),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'set': {
        const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
        const day = interaction.options.getString('day', true);
        const weekday = WEEKDAYS.indexOf(day as (typeof WEEKDAYS)[number]);
        if (weekday < 0) throw new UserFacingError(`"${day}" is not a day of the week. Nothing was saved.`);
        const hour = interaction.options.getInteger('hour', true);
        const timeZone = (interaction.options.getString('timezone') ?? 'UTC').trim();
        if (!isTimeZone(timeZone)) {
          throw new UserFacingError(
            `I do not know the time zone "${timeZone}": give one like Europe/Berlin or America/New_York. Nothing was saved.`,
          );
        }
        const missing = await findMissingPermissions(channel, DIGEST_PERMISSIONS);
        if (missing.length > 0) {
          throw new UserFacingError(
            `I cannot post the digest in <#${channel.id}>: I am missing ${missing.join(', ')} there. ` +
              'Grant them (or choose another channel) and run the command again; nothing was saved.',
          );
        }
        const nextAt = nextDigestAt(weekday, hour, timeZone, ctx.clock());
        await ctx.digests.setSchedule({ guildId, channelId: channel.id, weekday, hour, timeZone, nextAt });
        return replyEphemeral(
          interaction,
          `The weekly digest will be posted in <#${channel.id}> every ${day} at ${hour}:00 (${timeZone}); ` +
            `the first <t:${Math.floor(nextAt / 1000)}:F>, covering the week before it.`,
        );
      }
      case 'off': {
        const stopped = await ctx.digests.clearSchedule(guildId);
        return replyEphemeral(
          interaction,
          stopped ? 'The weekly digest is off.' : 'The weekly digest was not on; nothing changed.',
        );
      }
      case 'show': {
        const schedule = await ctx.digests.scheduleOf(guildId);
        if (!schedule) return replyEphemeral(interaction, 'The weekly digest is off: turn it on with /digest set.');
        const where = `Every ${WEEKDAYS[schedule.weekday] ?? '?'} at ${schedule.hour}:00 (${schedule.timeZone}) in <#${schedule.channelId}>`;
        const weekEnd = `<t:${Math.floor(schedule.nextAt / 1000)}:F>`;
        // Failed and backing off: the week's digest is still to come, later than its hour.
        return replyEphemeral(
          interaction,
          schedule.failures === 0
            ? `${where}; the next ${weekEnd}.`
            : `${where}. The digest of the week to ${weekEnd} could not be posted ` +
                `(${schedule.failures === 1 ? '1 try' : `${schedule.failures} tries`}; /status says why): ` +
                `tried again <t:${Math.floor(schedule.tryAt / 1000)}:R>.`,
        );
      }
      default:
        throw new Error(`unknown /digest subcommand ${subcommand}`);
    }
  },

  readOnly: (subcommand) => subcommand === 'show',
};
