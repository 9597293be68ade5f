import {
  ComponentType,
  type AutocompleteInteraction,
  type ModalSubmitInteraction,
  type RepliableInteraction,
} from 'discord.js';

import { UserFacingError } from '../base/errors.js';
import type { Logger } from '../base/logger.js';
import type { BoundCommand } from './command.js';
import { toLoggableError } from './log-error.js';
import { replyEphemeral } from './reply.js';

/*
 * How an interaction that failed is answered and logged (interaction-dispatch.ts routes them): the user sees a
 * refusal as it was worded or the generic failure, the log gets where it happened, and nothing typed into a dialog
 * reaches a log line.
 */

/** What anyone sees when something failed that is not theirs to fix. */
export const GENERIC_FAILURE = 'Something went wrong on our side; it has been logged.';

/** Where an interaction was headed, for log lines: names and ids only, never an option's value. */
export interface InteractionPlace {
  command: string;
  subcommand?: string;
  /** A button's or dialog's handler (`<feature>:<name>`), never the rest of its custom id (a typed search). */
  handler?: string;
  guildId: string | null;
  /** Discord's name for the interaction's kind, as log lines have always said it (a dialog is a modal). */
  kind: 'command' | 'autocomplete' | 'modal' | 'button';
}

export async function suggest(
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

export async function answerFailure(
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

/** Everything typed into a dialog's text inputs: kept out of any log line, whatever an error says. */
export function typedValues(interaction: ModalSubmitInteraction): string[] {
  return [...interaction.fields.fields.values()].flatMap((field) =>
    field.type === ComponentType.TextInput ? [field.value] : [],
  );
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
