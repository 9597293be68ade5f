import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

/**
 * One slash command: its definition (what deploy-commands registers) and its handlers. A command that opens a
 * modal or sends buttons gives them custom ids starting with `<command name>:`, and the dispatcher routes the
 * submit or the click back here. A button handler checks permission again: anyone who sees a button can click it.
 * `Deps` is what the command's handlers are given: the narrow dependencies of its feature (commands/<command>.ts
 * names them), bound once by {@link bindCommand}; a test calls a handler with its own.
 */
export interface Command<Deps> {
  data: { readonly name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  execute(interaction: ChatInputCommandInteraction, deps: Deps): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, deps: Deps): Promise<void>;
  submitModal?(interaction: ModalSubmitInteraction, deps: Deps): Promise<void>;
  button?(interaction: ButtonInteraction, deps: Deps): Promise<void>;
  /**
   * True for a subcommand or a button that only reads (a list, a page of results): not an admin action, so the
   * audit log leaves it out. Absent: everything is recorded.
   */
  readOnly?(target: { subcommand?: string; customId?: string }): boolean;
}

/** The custom id of a command's modal or button: routed back to the command by the part before the colon. */
export function modalCustomId(commandName: string, modal: string): string {
  return `${commandName}:${modal}`;
}

/** The command a modal custom id belongs to. */
export function commandOfCustomId(customId: string): string {
  const colon = customId.indexOf(':');
  return colon === -1 ? customId : customId.slice(0, colon);
}

/** A command with its dependencies bound: what the dispatcher serves. */
export interface BoundCommand {
  data: Command<never>['data'];
  execute(interaction: ChatInputCommandInteraction): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction): Promise<void>;
  submitModal?(interaction: ModalSubmitInteraction): Promise<void>;
  button?(interaction: ButtonInteraction): Promise<void>;
  readOnly?(target: { subcommand?: string; customId?: string }): boolean;
}

/** The command with its handlers given `deps`, once: the composition root binds each command to its feature's. */
export function bindCommand<Deps>(command: Command<Deps>, deps: Deps): BoundCommand {
  const bound: BoundCommand = { data: command.data, execute: (interaction) => command.execute(interaction, deps) };
  const { autocomplete, submitModal, button, readOnly } = {
    autocomplete: command.autocomplete?.bind(command),
    submitModal: command.submitModal?.bind(command),
    button: command.button?.bind(command),
    readOnly: command.readOnly?.bind(command),
  };
  if (autocomplete) bound.autocomplete = (interaction) => autocomplete(interaction, deps);
  if (submitModal) bound.submitModal = (interaction) => submitModal(interaction, deps);
  if (button) bound.button = (interaction) => button(interaction, deps);
  if (readOnly) bound.readOnly = readOnly;
  return bound;
}
