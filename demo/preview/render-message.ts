import type { APIEmbed, APIEmbedField } from 'discord.js';

import { cssColour, escapeHtml, safeHref } from './html.js';
import { renderMarkdown, type MarkdownContext } from './markdown.js';
import { formatCalendar } from './timestamps.js';

/** What the preview shows of one message: the parts of the fake Discord's record it needs. */
export interface PreviewMessage {
  id: string;
  content: string;
  embeds: readonly APIEmbed[];
  /** ISO 8601, when the message was created. */
  timestamp: string;
  /** ISO 8601, when it was last edited (a release card follows its review this way); absent: never. */
  edited?: string | null;
  author: { name: string; bot: boolean };
  /** Labels of the message's buttons, drawn as Discord draws them (not clickable here). */
  buttons?: readonly string[];
  /** The title or first line of the message this one replies to. */
  replyTo?: string | undefined;
  /** The files the message carries, by name, with the address that serves each (an embed's `attachment://`). */
  files?: Readonly<Record<string, string>>;
}

/** Discord lays inline fields out three to a row on a 12-column grid; a field that is not inline takes a row. */
const FIELDS_PER_ROW = 3;
const GRID_COLUMNS = 12;

/** Grid columns (`start / end`) for each field, the way Discord's client places them. */
export function layOutFields(fields: readonly Pick<APIEmbedField, 'inline'>[]): string[] {
  const columns: string[] = [];
  let row: number[] = [];
  const flush = () => {
    const span = GRID_COLUMNS / row.length;
    row.forEach((_, position) => columns.push(`${1 + position * span} / ${1 + (position + 1) * span}`));
    row = [];
  };
  fields.forEach((field, index) => {
    if (field.inline === true) {
      row.push(index);
      if (row.length === FIELDS_PER_ROW) flush();
      return;
    }
    if (row.length > 0) flush();
    columns.push(`1 / ${GRID_COLUMNS + 1}`);
  });
  if (row.length > 0) flush();
  return columns;
}

function renderField(field: APIEmbedField, column: string, ctx: MarkdownContext): string {
  const inline = field.inline === true ? ' inline' : '';
  return (
    `<div class="embed-field${inline}" style="grid-column: ${column}">` +
    `<div class="embed-field-name">${renderMarkdown(field.name, ctx, { links: false, blocks: false })}</div>` +
    `<div class="embed-field-value">${renderMarkdown(field.value, ctx)}</div>` +
    '</div>'
  );
}

function renderTimestamp(iso: string | undefined, ctx: MarkdownContext): string {
  if (iso === undefined) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  return `<time class="embed-timestamp" datetime="${escapeHtml(new Date(ms).toISOString())}">${escapeHtml(formatCalendar(ms, ctx.now, ctx.timeZone))}</time>`;
}

/**
 * One embed as Discord draws it: colour bar, author, title (a link when it has a url), description, fields, image
 * (a file of the message named `attachment://…`, or an http(s) address), footer.
 */
export function renderEmbed(
  embed: APIEmbed,
  ctx: MarkdownContext,
  files: Readonly<Record<string, string>> = {},
): string {
  const colour = cssColour(embed.color) ?? '#1e1f22';
  const parts: string[] = [];
  if (embed.author?.name) {
    const href = safeHref(embed.author.url);
    const name = escapeHtml(embed.author.name);
    parts.push(
      `<div class="embed-author">${href ? `<a class="md-link" href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">${name}</a>` : name}</div>`,
    );
  }
  if (embed.title) {
    const title = renderMarkdown(embed.title, ctx, { links: false, blocks: false });
    const href = safeHref(embed.url);
    parts.push(
      href
        ? `<div class="embed-title"><a class="md-link" href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">${title}</a></div>`
        : `<div class="embed-title">${title}</div>`,
    );
  }
  if (embed.description) parts.push(`<div class="embed-description">${renderMarkdown(embed.description, ctx)}</div>`);
  const fields = embed.fields ?? [];
  if (fields.length > 0) {
    const columns = layOutFields(fields);
    parts.push(
      `<div class="embed-fields">${fields.map((field, index) => renderField(field, columns[index] ?? '1 / 13', ctx)).join('')}</div>`,
    );
  }
  const image = imageSource(embed.image?.url, files);
  if (image) parts.push(`<img class="embed-image" src="${escapeHtml(image)}" alt="">`);
  const footerText = embed.footer?.text;
  const timestamp = renderTimestamp(embed.timestamp, ctx);
  if (footerText || timestamp) {
    const separator = footerText && timestamp ? '<span class="embed-footer-separator">•</span>' : '';
    parts.push(
      `<div class="embed-footer">${footerText ? `<span>${escapeHtml(footerText)}</span>` : ''}${separator}${timestamp}</div>`,
    );
  }
  return `<article class="embed" style="border-left-color: ${colour}" data-colour="${colour}">${parts.join('')}</article>`;
}

/** Where an embed's image comes from: a file of the message (`attachment://name`), or an http(s) address. */
function imageSource(url: string | undefined, files: Readonly<Record<string, string>>): string | undefined {
  if (url?.startsWith('attachment://')) return safeHref(files[url.slice('attachment://'.length)]);
  return safeHref(url);
}

/**
 * The files Discord lists under a message (name and address): all it carries but those an embed draws as its
 * image (a digest's chart), which Discord shows only in the embed.
 */
export function listedFiles(message: Pick<PreviewMessage, 'embeds' | 'files'>): Array<[string, string]> {
  const drawn = new Set(
    message.embeds.flatMap((embed) =>
      embed.image?.url?.startsWith('attachment://') ? [embed.image.url.slice('attachment://'.length)] : [],
    ),
  );
  return Object.entries(message.files ?? {}).filter(([name]) => !drawn.has(name));
}

/** One listed file: its name, a link to the address that serves it (an http(s) one only). */
function renderFile(name: string, url: string): string {
  const href = safeHref(url);
  const label = `<span class="message-file-name">${escapeHtml(name)}</span>`;
  return href
    ? `<a class="message-file" href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">${label}</a>`
    : `<span class="message-file">${label}</span>`;
}

/** Discord draws a message under the previous one, without avatar and name, when the same author sent both within this. */
const GROUP_WINDOW_MS = 7 * 60_000;

/** Whether `message` continues `previous`'s group (same author, within seven minutes). */
export function continuesGroup(previous: PreviewMessage | undefined, message: PreviewMessage): boolean {
  if (!previous || previous.author.name !== message.author.name) return false;
  const gap = Date.parse(message.timestamp) - Date.parse(previous.timestamp);
  return gap >= 0 && gap < GROUP_WINDOW_MS;
}

/**
 * A message: avatar, author with the APP tag and time (left out when it `continued` the previous author's
 * group, as Discord does), content (with mentions), then its embeds.
 */
export function renderMessage(message: PreviewMessage, ctx: MarkdownContext, continued = false): string {
  const ms = Date.parse(message.timestamp);
  const time = Number.isNaN(ms)
    ? ''
    : `<time class="message-time" datetime="${escapeHtml(new Date(ms).toISOString())}">${escapeHtml(formatCalendar(ms, ctx.now, ctx.timeZone))}</time>`;
  const initials = escapeHtml(message.author.name.trim().slice(0, 1).toUpperCase() || '?');
  const tag = message.author.bot ? '<span class="app-tag">APP</span>' : '';
  const content = message.content ? `<div class="message-content">${renderMarkdown(message.content, ctx)}</div>` : '';
  const fullHeader = `<div class="message-header"><span class="message-author">${escapeHtml(message.author.name)}</span>${tag}${time}</div>`;
  const reply =
    message.replyTo === undefined
      ? ''
      : `<div class="message-reply">↪ replying to <span class="message-reply-target">${escapeHtml(message.replyTo)}</span></div>`;
  const attached = listedFiles(message);
  const files =
    attached.length > 0
      ? `<div class="message-files">${attached.map(([name, url]) => renderFile(name, url)).join('')}</div>`
      : '';
  const buttons =
    message.buttons && message.buttons.length > 0
      ? `<div class="message-buttons">${message.buttons.map((label) => `<span class="message-button">${escapeHtml(label)}</span>`).join('')}</div>`
      : '';
  // A reply always shows its author: Discord does not fold it into the previous message's group.
  const folded = continued && message.replyTo === undefined;
  return (
    `<div class="message${folded ? ' continued' : ''}" data-message-id="${escapeHtml(message.id)}">` +
    (folded
      ? '<div class="avatar-space" aria-hidden="true"></div>'
      : `<div class="avatar" aria-hidden="true">${initials}</div>`) +
    '<div class="message-body">' +
    reply +
    (folded ? '' : fullHeader) +
    content +
    message.embeds.map((embed) => renderEmbed(embed, ctx, message.files)).join('') +
    files +
    buttons +
    (message.edited ? '<span class="message-edited">(edited)</span>' : '') +
    '</div></div>'
  );
}
