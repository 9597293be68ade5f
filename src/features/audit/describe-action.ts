import {
  ApplicationCommandOptionType,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
} from 'discord.js';

import { truncateText } from '../../base/truncate-text.js';

/** A typed value is cut to this in an audit line: enough to recognise it, not to store a document. */
const MAX_VALUE_LENGTH = 60;

/**
 * Anything that looks like a key or a token: the service's keys (`usk_…`, `upk_…`), a Discord token's three
 * dotted parts, or a long unbroken run of key-like characters. Keys are only ever typed into dialogs, whose
 * values are never described; this is the guard for a key pasted into the wrong option.
 */
const SECRET_SHAPES = [/\bu[sp]k_[\x21-\x7e]*/gi, /[\w-]{20,}\.[\w-]{4,}\.[\w-]{20,}/g, /[A-Za-z0-9+/=_-]{32,}/g];

/** Replaces whatever looks like a key or a token with `[redacted]`. */
export function redactSecrets(text: string): string {
  return SECRET_SHAPES.reduce((result, shape) => result.replace(shape, '[redacted]'), text);
}

/** `/feed set event:modcall channel:<#1>`: the command and its options, channels and roles as mentions. */
export function describeCommand(interaction: ChatInputCommandInteraction): string {
  const parts = [`/${interaction.commandName}`];
  const walk = (options: readonly CommandInteractionOption[]) => {
    for (const option of options) {
      if (
        option.type === ApplicationCommandOptionType.Subcommand ||
        option.type === ApplicationCommandOptionType.SubcommandGroup
      ) {
        parts.push(option.name);
        walk(option.options ?? []);
      } else {
        parts.push(`${option.name}:${describeValue(option)}`);
      }
    }
  };
  walk(interaction.options.data);
  return parts.join(' ');
}

/**
 * A dialog is named by its command (`/setup dialog submitted`), never by what was typed into it (keys are typed
 * into dialogs).
 */
export function describeDialog(command: string): string {
  return `/${command} dialog submitted`;
}

/** The button's label as the clicker saw it, and the command a user knows it by (`Claim (/feed button)`). */
export function describeButton(interaction: ButtonInteraction, command: string): string {
  // discord.js looks the button up in the message Discord sent along, which may no longer hold it (a stale view
  // of a card edited since): the typings promise a component that is then missing.
  const component = interaction.component as ButtonInteraction['component'] | undefined;
  const label = component && 'label' in component ? component.label : null;
  return `${label ?? 'button'} (/${command} button)`;
}

function describeValue(option: CommandInteractionOption): string {
  switch (option.type) {
    case ApplicationCommandOptionType.Channel:
      return `<#${String(option.value)}>`;
    case ApplicationCommandOptionType.Role:
      return `<@&${String(option.value)}>`;
    case ApplicationCommandOptionType.User:
      return `<@${String(option.value)}>`;
    case ApplicationCommandOptionType.Mentionable:
      return `<@${String(option.value)}>`;
    case ApplicationCommandOptionType.Attachment:
      return 'an attachment';
    default:
      return truncateText(redactSecrets(String(option.value)), MAX_VALUE_LENGTH);
  }
}
