import type { APIEmbed, APIEmbedField } from 'discord.js';

import { truncateText } from '../base/truncate-text.js';
import type { MessagePayload } from '../discord/message-payload.js';

/*
 * Discord's message and embed limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
 *
 * Lengths are counted in UTF-16 code units (JavaScript's `string.length`). Discord documents "characters";
 * whether it counts code units or code points, a code-unit count is never smaller than a code-point count,
 * so a message that fits by this measure fits by Discord's too. The price is that emoji-heavy text is cut a
 * little earlier than strictly needed.
 */

/** Message `content` of a bot (the published schema says 4000, which only Nitro users get). */
export const MAX_CONTENT_LENGTH = 2000;
/** Embed `title`. */
export const MAX_EMBED_TITLE_LENGTH = 256;
/** Embed `description`. */
export const MAX_EMBED_DESCRIPTION_LENGTH = 4096;
/** Fields in one embed. */
export const MAX_EMBED_FIELDS = 25;
/** Field `name`. */
export const MAX_FIELD_NAME_LENGTH = 256;
/** Field `value`. */
export const MAX_FIELD_VALUE_LENGTH = 1024;
/** Embed `footer.text`. */
export const MAX_FOOTER_TEXT_LENGTH = 2048;
/** Embed `author.name`. */
export const MAX_AUTHOR_NAME_LENGTH = 256;
/** Embeds in one message; the outbox uses it to batch several events into one message. */
export const MAX_EMBEDS_PER_MESSAGE = 10;
/** Characters over all embeds of one message, as {@link embedLength} measures them. */
export const MAX_MESSAGE_EMBED_CHARS = 6000;

/**
 * Stands in for a required string that is empty or blank: Discord trims field names and values and refuses
 * empty ones, but a zero-width space is not whitespace to it.
 */
const BLANK_PLACEHOLDER = '\u200b';

/** Python's `str.isspace` (Discord's API is Python) also counts these, which JavaScript's `\s` does not. */
const PYTHON_ONLY_SPACES: ReadonlySet<string> = new Set(['\u001c', '\u001d', '\u001e', '\u001f', '\u0085']);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The measure Discord holds to {@link MAX_MESSAGE_EMBED_CHARS} over all embeds of a message: title,
 * description, field names and values, footer text and author name.
 */
export function embedLength(embed: APIEmbed): number {
  let length = (embed.title?.length ?? 0) + (embed.description?.length ?? 0);
  for (const field of embed.fields ?? []) length += field.name.length + field.value.length;
  return length + (embed.footer?.text.length ?? 0) + (embed.author?.name.length ?? 0);
}

/**
 * Returns a copy of `payload` that Discord accepts: every string within its limit and well-formed, at most
 * {@link MAX_EMBEDS_PER_MESSAGE} embeds of at most {@link MAX_EMBED_FIELDS} fields, and at most
 * {@link MAX_MESSAGE_EMBED_CHARS} over all embeds. Cut text ends with "…". Required strings (field name
 * and value) are never left empty. Extra embeds or fields beyond the counts are dropped: the builders never
 * make that many, and the outbox batches by the same constants.
 *
 * When the 6000 rule bites, the longest texts are shortened first, down to a common length, so short
 * fields (case number, mentions, times) survive intact while a long reason or data dump gives way.
 */
export function fitMessageToLimits(payload: MessagePayload): MessagePayload {
  const embeds = payload.embeds.slice(0, MAX_EMBEDS_PER_MESSAGE).map(fitEmbed);
  // allowed_mentions is the route's decision, not text: it passes through untouched.
  const fitted: MessagePayload = { embeds: fitTotalLength(embeds), allowed_mentions: payload.allowed_mentions };
  const content = fitOptional(payload.content, MAX_CONTENT_LENGTH);
  if (content !== undefined) fitted.content = content;
  return fitted;
}

function fitEmbed(embed: APIEmbed): APIEmbed {
  const { title, description, fields, footer, author, ...rest } = embed;
  const fitted: APIEmbed = { ...rest };
  const fittedTitle = fitOptional(title, MAX_EMBED_TITLE_LENGTH);
  if (fittedTitle !== undefined) fitted.title = fittedTitle;
  const fittedDescription = fitOptional(description, MAX_EMBED_DESCRIPTION_LENGTH);
  if (fittedDescription !== undefined) fitted.description = fittedDescription;
  if (fields !== undefined) fitted.fields = fields.slice(0, MAX_EMBED_FIELDS).map(fitField);
  // Discord requires `text` in a footer and `name` in an author: a blank one is dropped with its object.
  const footerText = fitOptional(footer?.text, MAX_FOOTER_TEXT_LENGTH);
  if (footer !== undefined && footerText !== undefined) fitted.footer = { ...footer, text: footerText };
  const authorName = fitOptional(author?.name, MAX_AUTHOR_NAME_LENGTH);
  if (author !== undefined && authorName !== undefined) fitted.author = { ...author, name: authorName };
  return fitted;
}

function fitField(field: APIEmbedField): APIEmbedField {
  return {
    ...field,
    name: fitRequired(field.name, MAX_FIELD_NAME_LENGTH),
    value: fitRequired(field.value, MAX_FIELD_VALUE_LENGTH),
  };
}

/** A blank optional string is left out: Discord would show nothing for it anyway. */
function fitOptional(text: string | undefined, max: number): string | undefined {
  if (text === undefined || isBlank(text)) return undefined;
  return truncateText(toWellFormed(text), max);
}

function fitRequired(text: string, max: number): string {
  if (isBlank(text)) return BLANK_PLACEHOLDER;
  return truncateText(toWellFormed(text), max);
}

/** Whitespace in either JavaScript's or Python's sense, so "blank" errs on the side of Discord refusing it. */
function isBlank(text: string): boolean {
  for (const char of text) if (!/\s/.test(char) && !PYTHON_ONLY_SPACES.has(char)) return false;
  return true;
}

/** A lone surrogate (from a JSON `\ud800` escape) is not valid Unicode; Discord may refuse it. */
function toWellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** One string counted by the 6000 rule, and how to put a shortened copy back. */
interface TextSlot {
  length: number;
  shorten: (max: number) => unknown;
}

function fitTotalLength(embeds: APIEmbed[]): APIEmbed[] {
  const total = embeds.reduce((sum, embed) => sum + embedLength(embed), 0);
  if (total <= MAX_MESSAGE_EMBED_CHARS) return embeds;

  const copies = embeds.map(copyEmbed);
  const slots = copies.flatMap(collectSlots);
  const cap = findLengthCap(
    slots.map((slot) => slot.length),
    MAX_MESSAGE_EMBED_CHARS,
  );
  for (const slot of slots) if (slot.length > cap) slot.shorten(cap);
  return copies;
}

/** Copies deep enough that shortening the copy's texts leaves the original alone. */
function copyEmbed(embed: APIEmbed): APIEmbed {
  const copy = { ...embed };
  if (embed.fields !== undefined) copy.fields = embed.fields.map((field) => ({ ...field }));
  return copy;
}

/** The strings of `embed` that the 6000 rule counts; each slot's `shorten` writes into `embed`. */
function collectSlots(embed: APIEmbed): TextSlot[] {
  const slots: TextSlot[] = [];
  const { title, description, footer, author } = embed;
  if (title !== undefined) slots.push(slotOf(title, (text) => (embed.title = text)));
  if (description !== undefined) slots.push(slotOf(description, (text) => (embed.description = text)));
  for (const field of embed.fields ?? []) {
    slots.push(slotOf(field.name, (text) => (field.name = text)));
    slots.push(slotOf(field.value, (text) => (field.value = text)));
  }
  if (footer !== undefined) slots.push(slotOf(footer.text, (text) => (embed.footer = { ...footer, text })));
  if (author !== undefined) slots.push(slotOf(author.name, (name) => (embed.author = { ...author, name })));
  return slots;
}

function slotOf(text: string, write: (shortened: string) => unknown): TextSlot {
  return { length: text.length, shorten: (max) => write(truncateText(text, max)) };
}

/**
 * The largest cap such that the lengths, each cut to at most the cap, sum to at most `budget`
 * ("water filling"). Never below 1, so a required string keeps at least "…": with at most 10 embeds of
 * 25 fields the strings number a few hundred, far below the budget.
 */
function findLengthCap(lengths: number[], budget: number): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  let remaining = budget;
  for (const [index, length] of sorted.entries()) {
    const left = sorted.length - index;
    if (length * left > remaining) return Math.max(1, Math.floor(remaining / left));
    remaining -= length;
  }
  return Number.POSITIVE_INFINITY;
}
