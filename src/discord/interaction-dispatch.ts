import {
  Events,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type Interaction,
  type ModalSubmitInteraction,
} from 'discord.js';

import { UserFacingError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type { BoundInteractions } from './command.js';
import {
  answerFailure,
  capitalise,
  GENERIC_FAILURE,
  suggest,
  typedValues,
  type InteractionPlace,
} from './interaction-failures.js';
import { routeInteractions, type LegacyCustomId, type RoutedId } from './interaction-routes.js';
import { toLoggableError } from './log-error.js';
import { watchQueuedInteractions } from './queued-interactions.js';
import { replyEphemeral } from './reply.js';

/** What the user sees for a command this process does not have (the registered set is out of date). */
export const UNKNOWN_COMMAND =
  "This bot does not know that command (its registered commands are out of date): ask the bot's host to run npm run deploy-commands.";

/** How an admin action ended, as the audit log records it. */
export interface DispatchedAction {
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction;
  /** The slash command the user knows the action by: the command itself, or the one a button or dialog is of. */
  command: string;
  guildId: string;
  result: 'done' | 'refused' | 'failed';
  /** The refusal the user was shown. */
  detail: string | null;
  /** True for a lookup in the community record (Command.lookup): the audit log's kind. */
  lookup?: boolean;
}

export interface DispatchOptions {
  /**
   * Told of every command, dialog and button click in a server once it was answered (read-only ones left out,
   * see Command.readOnly): the audit log. Its failure is logged and changes nothing for the user.
   */
  onAction?: (action: DispatchedAction) => Promise<void>;
  /** Custom ids of earlier versions, still on posted messages, and the handlers that answer them now. */
  legacyCustomIds?: readonly LegacyCustomId[];
  /**
   * Whether an interaction may be answered here now: a shard's client answers only while this process holds the
   * shard (shard-gateways.ts), so one arriving after the lease was lost is left to its next holder. Absent: always.
   */
  answersHere?: () => boolean;
}

/**
 * The one interactionCreate handler: routes slash commands and autocomplete to their command, and dialog submits
 * and button clicks to the handler of the feature that owns their custom id (`<feature>:<name>`, see
 * interaction-routes.ts; an earlier version's id through `options.legacyCustomIds`).
 * A {@link UserFacingError} is shown to the user as it is; anything else is logged with where it happened
 * and answered with {@link GENERIC_FAILURE}. Every answer is ephemeral. The returned function never rejects.
 */
export function createInteractionDispatcher(
  interactions: BoundInteractions,
  logger: Logger,
  options: DispatchOptions = {},
): (interaction: Interaction) => Promise<void> {
  const routes = routeInteractions(interactions, options.legacyCustomIds);

  /** Runs `work` (undefined: nobody answers it here), answers a failure, then tells the audit log. */
  const run = async (
    interaction: DispatchedAction['interaction'],
    place: InteractionPlace,
    work: (() => Promise<void>) | undefined,
    readOnly: () => boolean,
    typed: string[] = [],
    lookup = false,
  ) => {
    let result: DispatchedAction['result'] = 'done';
    let detail: string | null = null;
    try {
      if (!work) throw new UserFacingError(UNKNOWN_COMMAND);
      await work();
    } catch (error) {
      result = error instanceof UserFacingError ? 'refused' : 'failed';
      if (error instanceof UserFacingError) detail = capitalise(error.message);
      await answerFailure(interaction, place, error, typed, logger);
    }
    if (!options.onAction || !interaction.guildId) return;
    // After the answer: recording never delays it, and its failure (thrown or rejected) is the host's to see,
    // not the user's.
    try {
      if (readOnly()) return;
      const action = { interaction, command: place.command, guildId: interaction.guildId, result, detail };
      await options.onAction(lookup ? { ...action, lookup } : action);
    } catch (error) {
      logger.error({ ...place, err: toLoggableError(error, typed) }, 'recording an admin action failed');
    }
  };

  const dispatch = async (interaction: Interaction) => {
    if (interaction.isChatInputCommand()) {
      const subcommand = interaction.options.getSubcommand(false);
      const place: InteractionPlace = {
        command: interaction.commandName,
        guildId: interaction.guildId,
        kind: 'command',
        ...(subcommand ? { subcommand } : {}),
      };
      const command = routes.command(interaction.commandName);
      await run(
        interaction,
        place,
        command && (() => command.execute(interaction)),
        () => command?.readOnly?.(subcommand ?? undefined) === true,
        [],
        command?.lookup?.(subcommand ?? undefined) === true,
      );
    } else if (interaction.isModalSubmit()) {
      const routed = routes.dialog(interaction.customId);
      await run(
        interaction,
        componentPlace(interaction, routed, 'modal'),
        routed && (() => routed.handler.run(interaction, routed.args)),
        () => routed?.handler.readOnly?.(routed.args) === true,
        typedValues(interaction),
      );
    } else if (interaction.isButton()) {
      const routed = routes.button(interaction.customId);
      await run(
        interaction,
        componentPlace(interaction, routed, 'button'),
        routed && (() => routed.handler.run(interaction, routed.args)),
        () => routed?.handler.readOnly?.(routed.args) === true,
      );
    } else if (interaction.isAutocomplete()) {
      await suggest(interaction, routes.command(interaction.commandName), logger);
    }
  };

  // The last guard: whatever escaped the steps above is logged and answered, and never ends the process.
  return async (interaction) => {
    try {
      await dispatch(interaction);
    } catch (error) {
      const typed = interaction.isModalSubmit() ? typedValues(interaction) : [];
      logger.error(
        { guildId: interaction.guildId, interactionType: interaction.type, err: toLoggableError(error, typed) },
        'interaction failed outside its handler',
      );
      if (interaction.isRepliable() && !interaction.replied && !interaction.deferred) {
        await replyEphemeral(interaction, GENERIC_FAILURE).catch(() => undefined);
      }
    }
  };
}

/**
 * Registers the dispatcher as the client's interactionCreate listener; returns the function that removes it.
 * An interaction discord.js queued too long at start-up was already answered (see queued-interactions.ts) and
 * is not run.
 */
export function attachInteractionDispatcher(
  client: Client,
  interactions: BoundInteractions,
  logger: Logger,
  options: DispatchOptions = {},
): () => void {
  const dispatch = createInteractionDispatcher(interactions, logger, options);
  const queued = watchQueuedInteractions(client, logger);
  const listener = (interaction: Interaction) => {
    if (options.answersHere?.() === false) return;
    if (queued.answeredWhileQueued(interaction)) return;
    void dispatch(interaction);
  };
  client.on(Events.InteractionCreate, listener);
  return () => {
    client.off(Events.InteractionCreate, listener);
    queued.detach();
  };
}

/**
 * Where a click or a dialog was headed: its handler and the command a user knows it by; one nobody answers is
 * named by its custom id's first part.
 */
function componentPlace(
  interaction: ButtonInteraction | ModalSubmitInteraction,
  routed: RoutedId<unknown> | undefined,
  kind: 'modal' | 'button',
): InteractionPlace {
  const { customId, guildId } = interaction;
  return routed
    ? { command: routed.handler.command, handler: routed.handler.id, guildId, kind }
    : { command: customId.split(':')[0] ?? customId, guildId, kind };
}
