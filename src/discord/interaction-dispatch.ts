import {
  ComponentType,
  Events,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type Interaction,
  type ModalSubmitInteraction,
  type RepliableInteraction,
} from 'discord.js';

import { UserFacingError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import { commandOfCustomId, type BoundCommand } from './command.js';
import { toLoggableError } from './log-error.js';
import { watchQueuedInteractions } from './queued-interactions.js';
import { replyEphemeral } from './reply.js';

/** What anyone sees when something failed that is not theirs to fix. */
export const GENERIC_FAILURE = 'Something went wrong on our side; it has been logged.';

/** What the user sees for a command this process does not have (the registered set is out of date). */
export const UNKNOWN_COMMAND =
  "This bot does not know that command (its registered commands are out of date): ask the bot's host to run npm run deploy-commands.";

/** How an admin action ended, as the audit log records it. */
export interface DispatchedAction {
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction;
  guildId: string;
  result: 'done' | 'refused' | 'failed';
  /** The refusal the user was shown. */
  detail: string | null;
}

export interface DispatchOptions {
  /**
   * Told of every command, dialog and button click in a server once it was answered (read-only ones left out,
   * see Command.readOnly): the audit log. Its failure is logged and changes nothing for the user.
   */
  onAction?: (action: DispatchedAction) => Promise<void>;
}

/** Where an interaction was headed, for log lines: names and ids only, never an option's value. */
interface InteractionPlace {
  command: string;
  subcommand?: string;
  guildId: string | null;
  kind: 'command' | 'autocomplete' | 'modal' | 'button';
}

/**
 * The one interactionCreate handler: routes slash commands, autocomplete, modal submits and button clicks to
 * their command (modals and buttons by the `<command>:` prefix of their custom id).
 * A {@link UserFacingError} is shown to the user as it is; anything else is logged with where it happened
 * and answered with {@link GENERIC_FAILURE}. Every answer is ephemeral. The returned function never rejects.
 */
export function createInteractionDispatcher(
  commands: readonly BoundCommand[],
  logger: Logger,
  options: DispatchOptions = {},
): (interaction: Interaction) => Promise<void> {
  const byName = new Map(commands.map((command) => [command.data.name, command]));

  const run = async (
    interaction: DispatchedAction['interaction'],
    place: InteractionPlace,
    work: (command: BoundCommand) => Promise<void>,
    typed: string[] = [],
  ) => {
    const command = byName.get(place.command);
    let result: DispatchedAction['result'] = 'done';
    let detail: string | null = null;
    try {
      if (!command) throw new UserFacingError(UNKNOWN_COMMAND);
      await work(command);
    } catch (error) {
      result = error instanceof UserFacingError ? 'refused' : 'failed';
      if (error instanceof UserFacingError) detail = capitalise(error.message);
      await answerFailure(interaction, place, error, typed, logger);
    }
    const target = interaction.isButton()
      ? { customId: interaction.customId }
      : place.subcommand
        ? { subcommand: place.subcommand }
        : {};
    if (!options.onAction || !interaction.guildId) return;
    // After the answer: recording never delays it, and its failure (thrown or rejected) is the host's to see,
    // not the user's.
    try {
      if (command?.readOnly?.(target)) return;
      await options.onAction({ interaction, guildId: interaction.guildId, result, detail });
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
      await run(interaction, place, (command) => command.execute(interaction));
    } else if (interaction.isModalSubmit()) {
      const place: InteractionPlace = {
        command: commandOfCustomId(interaction.customId),
        guildId: interaction.guildId,
        kind: 'modal',
      };
      await run(
        interaction,
        place,
        async (command) => {
          if (!command.submitModal) throw new UserFacingError(UNKNOWN_COMMAND);
          await command.submitModal(interaction);
        },
        typedValues(interaction),
      );
    } else if (interaction.isButton()) {
      const place: InteractionPlace = {
        command: commandOfCustomId(interaction.customId),
        guildId: interaction.guildId,
        kind: 'button',
      };
      await run(interaction, place, async (command) => {
        if (!command.button) throw new UserFacingError(UNKNOWN_COMMAND);
        await command.button(interaction);
      });
    } else if (interaction.isAutocomplete()) {
      await suggest(interaction, byName.get(interaction.commandName), logger);
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
  commands: readonly BoundCommand[],
  logger: Logger,
  options: DispatchOptions = {},
): () => void {
  const dispatch = createInteractionDispatcher(commands, logger, options);
  const queued = watchQueuedInteractions(client, logger);
  const listener = (interaction: Interaction) => {
    if (queued.answeredWhileQueued(interaction)) return;
    void dispatch(interaction);
  };
  client.on(Events.InteractionCreate, listener);
  return () => {
    client.off(Events.InteractionCreate, listener);
    queued.detach();
  };
}

async function suggest(
  interaction: AutocompleteInteraction,
  command: BoundCommand | undefined,
  logger: Logger,
): Promise<void> {
  try {
    if (command?.autocomplete) await command.autocomplete(interaction);
    else await interaction.respond([]);
  } catch (error) {
    logger.error(
      {
        command: interaction.commandName,
        guildId: interaction.guildId,
        kind: 'autocomplete',
        err: toLoggableError(error),
      },
      'autocomplete failed',
    );
    if (!interaction.responded) await interaction.respond([]).catch(() => undefined);
  }
}

async function answerFailure(
  interaction: RepliableInteraction,
  place: InteractionPlace,
  error: unknown,
  typed: string[],
  logger: Logger,
): Promise<void> {
  let text = GENERIC_FAILURE;
  if (error instanceof UserFacingError) {
    text = capitalise(error.message);
  } else {
    logger.error({ ...place, err: toLoggableError(error, typed) }, 'interaction failed');
  }
  try {
    await replyEphemeral(interaction, text);
  } catch (replyError) {
    // The interaction may have expired (15 min) or been answered elsewhere: nothing left to tell the user.
    logger.warn({ ...place, err: toLoggableError(replyError, typed) }, 'could not answer the interaction');
  }
}

/** Everything typed into a modal's text inputs: kept out of any log line, whatever an error says. */
function typedValues(interaction: ModalSubmitInteraction): string[] {
  return [...interaction.fields.fields.values()].flatMap((field) =>
    field.type === ComponentType.TextInput ? [field.value] : [],
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
