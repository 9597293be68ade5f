import {
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type SlashCommandChannelOption,
  type SlashCommandStringOption,
} from 'discord.js';

import type { Command, CommandBasics } from '../discord/command.js';
import { FEED_CHANNEL_TYPES } from '../discord/feed-channel.js';
import { requireAdmin } from '../discord/require-admin.js';
import { setEventMention, type FeedMentionDeps } from '../features/cards/index.js';
import { showHeld, type FeedHeldDeps } from '../features/health/index.js';
import { startReplay, type FeedReplayDeps } from '../features/replay/index.js';
import {
  clearRule,
  setDefaultChannel,
  setEventChannel,
  showRoutes,
  turnEventOff,
  type FeedRoutingDeps,
} from '../features/routing/index.js';
import { setSessionThreads, type FeedThreadsDeps } from '../features/threads/index.js';
import { ALL_EVENTS, eventChoices } from '../upstream/event-choices.js';

/** What /feed is given: what each feature's subcommands take, no more. */
export type FeedCommandDeps = CommandBasics &
  FeedRoutingDeps &
  FeedMentionDeps &
  FeedHeldDeps &
  FeedThreadsDeps &
  FeedReplayDeps;

/** The most hours /feed replay takes: the longest replay window a host may set (its own window is checked after). */
const MAX_REPLAY_HOURS = 720;

/** The longest escalation delay: a day. */
const MAX_ESCALATE_AFTER_MINUTES = 1_440;

const eventOption = (option: SlashCommandStringOption) =>
  option
    .setName('event')
    .setDescription('The event')
    .setRequired(true)
    .addChoices(...eventChoices());

/** set, off and clear also take `all`: every event of a game server, or every case of a type. */
const ruleEventOption = (option: SlashCommandStringOption) =>
  option
    .setName('event')
    .setDescription('The event, or all (with a server or a case type)')
    .setRequired(true)
    .addChoices(...eventChoices(), { name: 'all events', value: ALL_EVENTS });

const serverOption = (option: SlashCommandStringOption) =>
  option.setName('server').setDescription('Only events of this game server (its id, digits)').setMaxLength(20);

const caseTypeOption = (option: SlashCommandStringOption) =>
  option.setName('case-type').setDescription('Only cases of this type, like warn or ban').setMaxLength(32);

const channelOption = (description: string) => (option: SlashCommandChannelOption) =>
  option
    .setName('channel')
    .setDescription(description)
    .setRequired(true)
    .addChannelTypes(...FEED_CHANNEL_TYPES);

/**
 * /feed set|off|clear|default|mention|threads|replay|show|held: which event goes to which channel, and whom it
 * pings. Shared: each subcommand is its feature's (set, off, clear, default, show: the routing; mention and its
 * escalation options: the cards; threads: the session threads; replay: the replay; held: feed health, whose buttons
 * are its own).
 */
export const feedCommand: Command<FeedCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('feed')
    .setDescription('Choose where events are posted and whom they ping')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('set')
        .setDescription('Post an event (of one game server, of one case type) to its own channel')
        .addStringOption(ruleEventOption)
        .addChannelOption(channelOption('Where to post it'))
        .addStringOption(serverOption)
        .addStringOption(caseTypeOption)
        .addRoleOption((option) =>
          option.setName('mention').setDescription("A role to ping with these events (instead of the event's own)"),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('off')
        .setDescription('Stop posting an event (of one game server, of one case type); counted as muted in /status')
        .addStringOption(ruleEventOption)
        .addStringOption(serverOption)
        .addStringOption(caseTypeOption),
    )
    .addSubcommand((sub) =>
      sub
        .setName('clear')
        .setDescription('Remove a rule of /feed set or /feed off: those events follow the next rule again')
        .addStringOption(ruleEventOption)
        .addStringOption(serverOption)
        .addStringOption(caseTypeOption),
    )
    .addSubcommand((sub) =>
      sub
        .setName('default')
        .setDescription('Post every event without a channel of its own here')
        .addChannelOption(channelOption('Where to post them')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('mention')
        .setDescription('Ping a role with an event (leave out the role to stop pinging)')
        .addStringOption(eventOption)
        .addRoleOption((option) => option.setName('role').setDescription('The role to ping; leave out to stop pinging'))
        .addIntegerOption((option) =>
          option
            .setName('escalate-after')
            .setDescription('Modcalls only: minutes unclaimed before the escalation role is pinged (0: off)')
            .setMinValue(0)
            .setMaxValue(MAX_ESCALATE_AFTER_MINUTES),
        )
        .addRoleOption((option) =>
          option.setName('escalate-role').setDescription('Modcalls only: the role pinged when nobody claims one'),
        )
        .addBooleanOption((option) =>
          option
            .setName('on-duty-first')
            .setDescription('Modcalls only: ping the staff on shift first, the role only after role-after minutes'),
        )
        .addIntegerOption((option) =>
          option
            .setName('role-after')
            .setDescription(
              'Modcalls only, with on-duty-first: minutes unclaimed before the role is pinged (default 3)',
            )
            .setMinValue(1)
            .setMaxValue(MAX_ESCALATE_AFTER_MINUTES),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('threads')
        .setDescription("Open a thread from each session's card, with the session's log and its report")
        .addStringOption((option) =>
          option
            .setName('event')
            .setDescription('Which cards open a thread')
            .setRequired(true)
            .addChoices({ name: 'session', value: 'session' }),
        )
        .addBooleanOption((option) => option.setName('on').setDescription('On or off').setRequired(true)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('replay')
        .setDescription('Post the last hours of the events that now go to a channel, marked as replayed')
        .addChannelOption(channelOption('Where to replay them'))
        .addIntegerOption((option) =>
          option
            .setName('hours')
            .setDescription('How many hours back (default 24, at most the replay window)')
            .setMinValue(1)
            .setMaxValue(MAX_REPLAY_HOURS),
        ),
    )
    .addSubcommand((sub) => sub.setName('show').setDescription('Show where each event goes and whom it pings'))
    .addSubcommand((sub) =>
      sub
        .setName('held')
        .setDescription('Deliveries held back (refused by Discord, no channel): retry, route or discard them')
        .addIntegerOption((option) => option.setName('page').setDescription('Which page').setMinValue(1)),
    ),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'set':
        return setEventChannel(interaction, ctx, guildId);
      case 'off':
        return turnEventOff(interaction, ctx, guildId);
      case 'clear':
        return clearRule(interaction, ctx, guildId);
      case 'default':
        return setDefaultChannel(interaction, ctx, guildId);
      case 'mention':
        return setEventMention(interaction, ctx, guildId);
      case 'threads':
        return setSessionThreads(interaction, ctx, guildId);
      case 'replay':
        return startReplay(interaction, ctx, guildId);
      case 'show':
        return showRoutes(interaction, ctx, guildId);
      case 'held':
        return showHeld(interaction, ctx, guildId);
      default:
        throw new Error(`unknown /feed subcommand ${subcommand}`);
    }
  },

  // Listing changes nothing.
  readOnly: (subcommand) => subcommand === 'show' || subcommand === 'held',
};
