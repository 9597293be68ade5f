import type { ButtonInteraction, ModalSubmitInteraction } from 'discord.js';

import type { BoundCommand, BoundHandler, BoundInteractions } from './command.js';

/**
 * A custom id of an earlier version, still on messages Discord keeps (a card's Claim, an alert's Re-enable, a page
 * of /case lookup): an id that is `from`, or starts with `from` and a colon, is read as if it began with `to`
 * instead. `from` and `to` are whole parts of an id (`feed:held`, not `feed:he`).
 */
export interface LegacyCustomId {
  from: string;
  to: string;
}

/** The handler a custom id is routed to, and what the id carries after `<feature>:<name>:`. */
export interface RoutedId<I> {
  handler: BoundHandler<I>;
  args: string;
}

/** Where each interaction goes: a slash command by its name, a button or a dialog by its custom id. */
export interface InteractionRoutes {
  command(name: string): BoundCommand | undefined;
  button(customId: string): RoutedId<ButtonInteraction> | undefined;
  dialog(customId: string): RoutedId<ModalSubmitInteraction> | undefined;
}

/** `<feature>:<name>`: lowercase words and dashes. */
const HANDLER_ID = /^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$/;

/**
 * The routes of `interactions`, custom ids of earlier versions read through `legacy` first. Like sapphire's
 * interaction handlers, a button or dialog is answered by the handler that claims its id, not by the command that
 * sent it; unlike sapphire, the claim is the id's prefix, looked up once, and exactly one handler owns it.
 * @throws Error when two commands share a name, two handlers an id, a handler's id is not `<feature>:<name>`, or a
 *   legacy id begins with a live feature's prefix (it would take that feature's clicks)
 */
export function routeInteractions(
  interactions: BoundInteractions,
  legacy: readonly LegacyCustomId[] = [],
): InteractionRoutes {
  const commands = uniqueBy(interactions.commands, (command) => command.data.name, 'command');
  const buttons = handlersById(interactions.buttons);
  const dialogs = handlersById(interactions.dialogs);
  const prefixes = new Set([...buttons.keys(), ...dialogs.keys()].map((id) => id.split(':')[0]));
  for (const { from } of legacy) {
    if (prefixes.has(from.split(':')[0])) throw new Error(`the legacy custom id ${from} begins with a live prefix`);
  }
  const route = <I>(handlers: Map<string, BoundHandler<I>>, customId: string): RoutedId<I> | undefined => {
    const id = readLegacy(customId, legacy);
    const second = id.indexOf(':', id.indexOf(':') + 1);
    const handler = handlers.get(second === -1 ? id : id.slice(0, second));
    return handler && { handler, args: second === -1 ? '' : id.slice(second + 1) };
  };
  return {
    command: (name) => commands.get(name),
    button: (customId) => route(buttons, customId),
    dialog: (customId) => route(dialogs, customId),
  };
}

/** The custom id as this version reads it: an earlier version's id rewritten by the first entry that matches. */
export function readLegacy(customId: string, legacy: readonly LegacyCustomId[]): string {
  const entry = legacy.find(({ from }) => customId === from || customId.startsWith(`${from}:`));
  return entry ? entry.to + customId.slice(entry.from.length) : customId;
}

function handlersById<I>(handlers: ReadonlyArray<BoundHandler<I>>): Map<string, BoundHandler<I>> {
  for (const handler of handlers) {
    if (!HANDLER_ID.test(handler.id)) throw new Error(`the handler id ${handler.id} is not <feature>:<name>`);
  }
  return uniqueBy(handlers, (handler) => handler.id, 'handler');
}

function uniqueBy<T>(items: readonly T[], keyOf: (item: T) => string, what: string): Map<string, T> {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const key = keyOf(item);
    if (byKey.has(key)) throw new Error(`two of the bot's interactions are the ${what} ${key}`);
    byKey.set(key, item);
  }
  return byKey;
}
