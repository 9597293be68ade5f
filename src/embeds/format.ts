import { escapeMarkdown } from 'discord.js';

import { truncateText } from '../base/truncate-text.js';

/*
 * Markdown helpers for text that comes from the service's users (reasons, names, messages). None of them
 * deals with mentions: a mention in user text is harmless because every message's `allowed_mentions`
 * parses nothing (see message.ts).
 */

/** Shown for user text that is empty or blank, since Discord refuses empty field values. */
export const EMPTY_TEXT = '—';

/** Headings and lists are off by default in discord.js; user text must not produce them either. */
const ESCAPE_BLOCKS = { heading: true, bulletedList: true, numberedList: true } as const;

/**
 * User text made safe for an embed: cut to `maxLength` first (so escaping a huge string stays cheap and the
 * cut is ours, visible), then markdown escaped, block quotes, subtext and masked links included.
 */
export function formatUserText(text: string, maxLength: number): string {
  if (text.trim() === '') return EMPTY_TEXT;
  return (
    escapeMarkdown(truncateText(text, maxLength), ESCAPE_BLOCKS)
      // discord.js's own masked-link escape only catches the first link of a line: escape every bracket, which
      // also lets a name sit inside our own link's text.
      .replace(/[[\]]/g, '\\$&')
      // escapeMarkdown leaves "> quote" and "-# subtext" at the start of a line alone.
      .replace(/^(\s*)(>|-#)/gm, '$1\\$2')
  );
}

/** A one-line name (a person, a session, a case type): whitespace runs become one space, then it is escaped. */
export function formatName(name: string, maxLength = 100): string {
  return formatUserText(name.replace(/\s+/g, ' ').trim(), maxLength);
}

/**
 * Breaks every run of backticks with zero-width spaces, so the text cannot close (or open) a code span or
 * block it is put in. Inserting after every backtick that precedes another leaves no two adjacent.
 */
export function breakBacktickRuns(text: string): string {
  return text.replace(/`(?=`)/g, '`\u200b');
}

/** A fenced code block whose content cannot end it early. `language` is ours, never user text. */
export function formatCodeBlock(text: string, maxLength: number, language = ''): string {
  return `\`\`\`${language}\n${breakBacktickRuns(truncateText(text, maxLength))}\n\`\`\``;
}

/**
 * Inline code on one line. The double-backtick delimiters let single backticks inside show as they are,
 * and {@link breakBacktickRuns} leaves no pair that could close the span.
 */
export function formatInlineCode(text: string, maxLength: number): string {
  const oneLine = truncateText(text.replace(/\s+/g, ' '), maxLength);
  return `\`\` ${breakBacktickRuns(oneLine)} \`\``;
}

/**
 * A value as JSON text for a code block or span. Never throws: a value from JSON.parse always stringifies,
 * and anything else gets a placeholder rather than costing the whole message.
 */
export function stringifyJson(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? '(no value)';
  } catch {
    return '(a value that cannot be shown as JSON)';
  }
}
