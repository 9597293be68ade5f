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
 * `Context` is what the composition root hands every handler (commands/context.ts); this folder never needs it.
 */
export interface Command<Context> {
  data: { readonly name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  execute(interaction: ChatInputCommandInteraction, ctx: Context): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, ctx: Context): Promise<void>;
  submitModal?(interaction: ModalSubmitInteraction, ctx: Context): Promise<void>;
  button?(interaction: ButtonInteraction, ctx: Context): Promise<void>;
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
