import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  Client,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';

/** What every slash command, button and dialog may use, whatever its feature. */
export interface CommandBasics {
  /** The discord.js client: channels, roles and permissions of the server an interaction came from. */
  client: Client;
  clock: Clock;
  logger: Logger;
}

/**
 * One slash command: its definition (what deploy-commands registers) and its handlers. `Deps` is what its
 * handlers are given, bound once by {@link bindInteractions}; a test calls a handler with its own. The buttons and
 * dialogs it shows are handlers of their own ({@link ButtonHandler}, {@link DialogHandler}), routed by custom id.
 */
export interface Command<in Deps> {
  data: { readonly name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  execute(interaction: ChatInputCommandInteraction, deps: Deps): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, deps: Deps): Promise<void>;
  /**
   * True for a subcommand that only reads (a list, a page of results): not an admin action, so the audit log
   * leaves it out. Absent: everything is recorded.
   */
  readOnly?(subcommand: string | undefined): boolean;
  /**
   * True for a subcommand that reads the community record about people (an export): the audit log records it as
   * a lookup (`/audit kind:lookup`), refusals too. A lookup about one person writes its own line instead, naming
   * whom (readOnly, then).
   */
  lookup?(subcommand: string | undefined): boolean;
}

/**
 * A button or a dialog (Discord's modal) a feature answers. Its custom ids are `<feature>:<name>`, then what the
 * click needs (`:<args>`, see {@link customIdOf}); the dispatcher routes each to the handler whose `id` is their
 * first two parts, so the feature that owns the id answers it, whichever command or job posted the message.
 * Anyone who sees a button can click it: a handler checks permission again.
 */
export interface ComponentHandler<in Deps, in I> {
  /** `<feature>:<name>`: the owning feature's prefix and the handler's name in it. */
  id: string;
  /** The slash command a user knows it by: the audit log's line names it (`Claim (/feed button)`). */
  command: string;
  /** `args`: what the custom id carries after `<feature>:<name>:` (empty when nothing). */
  run(interaction: I, deps: Deps, args: string): Promise<void>;
  /** True when the click only reads (a page of a list): the audit log leaves it out. Absent: it is recorded. */
  readOnly?(args: string): boolean;
}

export type ButtonHandler<Deps> = ComponentHandler<Deps, ButtonInteraction>;
export type DialogHandler<Deps> = ComponentHandler<Deps, ModalSubmitInteraction>;

/**
 * What a feature answers in Discord (its `commands/index.ts`): its slash commands, and the buttons and dialogs
 * whose custom ids carry its prefix. Known without a store or a connection: deploy-commands reads the commands'
 * definitions from it.
 */
export interface Interactions<in Deps> {
  commands?: ReadonlyArray<Command<Deps>>;
  buttons?: ReadonlyArray<ButtonHandler<Deps>>;
  dialogs?: ReadonlyArray<DialogHandler<Deps>>;
}

/** A command with its dependencies bound: what the dispatcher serves. */
export interface BoundCommand {
  data: Command<never>['data'];
  execute(interaction: ChatInputCommandInteraction): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction): Promise<void>;
  readOnly?(subcommand: string | undefined): boolean;
  lookup?(subcommand: string | undefined): boolean;
}

/** A button or dialog handler with its dependencies bound. */
export interface BoundHandler<I> {
  id: string;
  command: string;
  run(interaction: I, args: string): Promise<void>;
  readOnly?(args: string): boolean;
}

/** Every interaction the dispatcher serves, bound. */
export interface BoundInteractions {
  commands: BoundCommand[];
  buttons: Array<BoundHandler<ButtonInteraction>>;
  dialogs: Array<BoundHandler<ModalSubmitInteraction>>;
}

/** The interactions with their handlers given `deps`, once: the features' list binds each to its feature's. */
export function bindInteractions<Deps>(interactions: Interactions<Deps>, deps: Deps): BoundInteractions {
  return {
    commands: (interactions.commands ?? []).map((command) => bindCommand(command, deps)),
    buttons: (interactions.buttons ?? []).map((handler) => bindHandler(handler, deps)),
    dialogs: (interactions.dialogs ?? []).map((handler) => bindHandler(handler, deps)),
  };
}

/** Several sets of bound interactions as one. */
export function joinInteractions(all: readonly BoundInteractions[]): BoundInteractions {
  return {
    commands: all.flatMap((bound) => bound.commands),
    buttons: all.flatMap((bound) => bound.buttons),
    dialogs: all.flatMap((bound) => bound.dialogs),
  };
}

/**
 * The custom id of a handler's button or dialog: `<feature>:<name>` and each arg after a colon. An arg may hold
 * colons (a search) only if it is the last.
 */
export function customIdOf(handlerId: string, ...args: ReadonlyArray<string | number>): string {
  return [handlerId, ...args].join(':');
}

function bindCommand<Deps>(command: Command<Deps>, deps: Deps): BoundCommand {
  const bound: BoundCommand = { data: command.data, execute: (interaction) => command.execute(interaction, deps) };
  const autocomplete = command.autocomplete?.bind(command);
  if (autocomplete) bound.autocomplete = (interaction) => autocomplete(interaction, deps);
  if (command.readOnly) bound.readOnly = command.readOnly.bind(command);
  if (command.lookup) bound.lookup = command.lookup.bind(command);
  return bound;
}

function bindHandler<Deps, I>(handler: ComponentHandler<Deps, I>, deps: Deps): BoundHandler<I> {
  const bound: BoundHandler<I> = {
    id: handler.id,
    command: handler.command,
    run: (interaction, args) => handler.run(interaction, deps, args),
  };
  if (handler.readOnly) bound.readOnly = handler.readOnly.bind(handler);
  return bound;
}
