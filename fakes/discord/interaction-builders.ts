/**
 * Builders for the interactions a test sends to the bot: slash commands, autocomplete, modal submits, button
 * clicks. They
 * produce drafts; `FakeDiscord.dispatchInteraction` fills in ids, token, guild, channel, member, permissions
 * and resolved objects from the fake's state.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, ComponentType, InteractionType } from 'discord.js';

/**
 * Who invokes an interaction: `admin` holds Manage Server, `member` does not; `{ userId }` is another member
 * added with `FakeDiscord.addMember` (with the roles given there).
 */
export type Invoker = 'admin' | 'member' | { readonly userId: string };

/** Where and by whom an interaction happens; everything defaults (see {@link InteractionDraft}). */
export interface InteractionContext {
  /** Default `admin`. */
  readonly as?: Invoker;
  /** Default: the first guild. */
  readonly guildId?: string;
  /** Default: the first channel of the guild. */
  readonly channelId?: string;
  /** The user's locale; default `en-US`. */
  readonly locale?: string;
  /** Raw fields to set on the final payload, after the defaults (an escape hatch for odd cases). */
  readonly overrides?: Readonly<Record<string, unknown>>;
}

/** An interaction before the fake completes it. */
export interface InteractionDraft extends InteractionContext {
  readonly type: InteractionType;
  readonly data: Readonly<Record<string, unknown>>;
}

/** One option value of a command, as Discord sends it. */
export interface CommandOptionValue {
  readonly name: string;
  readonly type: ApplicationCommandOptionType;
  readonly value: string | number | boolean;
  readonly focused?: boolean;
}

const O = ApplicationCommandOptionType;

/** Shorthands for {@link CommandOptionValue}s; channel, role and user ids get resolved from the fake's state. */
export const commandOption = {
  string: (name: string, value: string): CommandOptionValue => ({ name, type: O.String, value }),
  integer: (name: string, value: number): CommandOptionValue => ({ name, type: O.Integer, value }),
  number: (name: string, value: number): CommandOptionValue => ({ name, type: O.Number, value }),
  boolean: (name: string, value: boolean): CommandOptionValue => ({ name, type: O.Boolean, value }),
  channel: (name: string, channelId: string): CommandOptionValue => ({ name, type: O.Channel, value: channelId }),
  role: (name: string, roleId: string): CommandOptionValue => ({ name, type: O.Role, value: roleId }),
  user: (name: string, userId: string): CommandOptionValue => ({ name, type: O.User, value: userId }),
  /** An attachment option; `attachmentId` from `FakeDiscord.addAttachment`. */
  attachment: (name: string, attachmentId: string): CommandOptionValue => ({
    name,
    type: O.Attachment,
    value: attachmentId,
  }),
} as const;

/** Which command, and with what. */
export interface CommandInvocation extends InteractionContext {
  readonly name: string;
  readonly group?: string;
  readonly subcommand?: string;
  readonly options?: readonly CommandOptionValue[];
}

function nestOptions(invocation: CommandInvocation): unknown[] {
  const leaf = (invocation.options ?? []).map((option) => ({ ...option }));
  if (invocation.subcommand === undefined) return leaf;
  const subcommand = { type: ApplicationCommandOptionType.Subcommand, name: invocation.subcommand, options: leaf };
  if (invocation.group === undefined) return [subcommand];
  return [{ type: ApplicationCommandOptionType.SubcommandGroup, name: invocation.group, options: [subcommand] }];
}

function context(spec: InteractionContext): InteractionContext {
  const { as, guildId, channelId, locale, overrides } = spec;
  return {
    ...(as === undefined ? {} : { as }),
    ...(guildId === undefined ? {} : { guildId }),
    ...(channelId === undefined ? {} : { channelId }),
    ...(locale === undefined ? {} : { locale }),
    ...(overrides === undefined ? {} : { overrides }),
  };
}

/** A slash command (`/name group subcommand option:value`). */
export function chatInputCommand(invocation: CommandInvocation): InteractionDraft {
  return {
    ...context(invocation),
    type: InteractionType.ApplicationCommand,
    data: { type: ApplicationCommandType.ChatInput, name: invocation.name, options: nestOptions(invocation) },
  };
}

/**
 * An autocomplete request while the user types into option `focused` of a command; Discord sends the partial
 * text as a string whatever the option's type.
 */
export function autocomplete(
  invocation: CommandInvocation & { readonly focused: string; readonly typed: string },
): InteractionDraft {
  const options = (invocation.options ?? []).filter((option) => option.name !== invocation.focused);
  const focused: CommandOptionValue = {
    name: invocation.focused,
    type: ApplicationCommandOptionType.String,
    value: invocation.typed,
    focused: true,
  };
  return {
    ...context(invocation),
    type: InteractionType.ApplicationCommandAutocomplete,
    data: {
      type: ApplicationCommandType.ChatInput,
      name: invocation.name,
      options: nestOptions({ ...invocation, options: [...options, focused] }),
    },
  };
}

/** A submitted modal. */
export interface ModalSubmission extends InteractionContext {
  readonly customId: string;
  /**
   * Values by their component's custom id: a string for a text input, a list for a string select (a select
   * sits in a label, so give `layout: 'label'`).
   */
  readonly fields: Readonly<Record<string, string | readonly string[]>>;
  /**
   * How the modal laid out its inputs: in action rows (`ActionRowBuilder<TextInputBuilder>`, default) or in
   * labels (`LabelBuilder`); Discord echoes the layout back.
   */
  readonly layout?: 'action-row' | 'label';
}

/** The submit of a modal the bot showed. */
export function modalSubmit(submission: ModalSubmission): InteractionDraft {
  const components = Object.entries(submission.fields).map(([customId, value], index) => {
    const input =
      typeof value === 'string'
        ? { type: ComponentType.TextInput, id: index * 2 + 2, custom_id: customId, value }
        : { type: ComponentType.StringSelect, id: index * 2 + 2, custom_id: customId, values: [...value] };
    return submission.layout === 'label'
      ? { type: ComponentType.Label, id: index * 2 + 1, component: input }
      : { type: ComponentType.ActionRow, id: index * 2 + 1, components: [input] };
  });
  return {
    ...context(submission),
    type: InteractionType.ModalSubmit,
    data: { custom_id: submission.customId, components },
  };
}

/** A click on a button of a message the bot sent. */
export interface ButtonClick extends InteractionContext {
  readonly customId: string;
  /** The message that holds the button, as the fake stored it (e.g. `outcome.reply`). */
  readonly message: { readonly api: unknown };
}

/** The click of a button: Discord sends the message that holds it along. */
export function buttonClick(click: ButtonClick): InteractionDraft {
  return {
    ...context(click),
    type: InteractionType.MessageComponent,
    data: { custom_id: click.customId, component_type: ComponentType.Button },
    overrides: { message: click.message.api, ...click.overrides },
  };
}
