import { cssColour, escapeHtml, safeHref } from './html.js';
import { formatTimestamp, isTimestampStyle } from './timestamps.js';

/** Who and what mentions refer to: names for `<@id>`, `<@&id>` and `<#id>`. */
export interface MentionDirectory {
  userName(id: string): string | undefined;
  role(id: string): { name: string; colour: number } | undefined;
  channelName(id: string): string | undefined;
}

export interface MarkdownContext {
  directory: MentionDirectory;
  /** Milliseconds since the epoch, for relative timestamps. */
  now: number;
  /** Default: the process's own zone. */
  timeZone?: string;
}

export interface MarkdownOptions {
  /** Masked links and bare URLs become links (descriptions, field values); titles and field names: no. */
  links?: boolean;
  /** Fenced code blocks (descriptions, field values, message content). */
  blocks?: boolean;
}

interface State extends Required<MarkdownOptions> {
  ctx: MarkdownContext;
  depth: number;
}

interface Rule {
  pattern: RegExp;
  /** Whether the rule may start here (e.g. `_` italics only at the start of a word). */
  when?: (source: string, index: number, state: State) => boolean;
  render(match: RegExpExecArray, state: State): string;
}

/** Past this nesting depth, the rest is shown as text: a hostile string must not cost deep recursion. */
const MAX_DEPTH = 8;

const inner = (text: string, state: State, overrides: Partial<MarkdownOptions> = {}) =>
  renderInline(text, { ...state, ...overrides, depth: state.depth + 1 });

const wrap = (tag: string, className: string) => (match: RegExpExecArray, state: State) =>
  `<${tag} class="${className}">${inner(match[1] ?? '', state)}</${tag}>`;

/**
 * Discord's markdown rules, in the order its client tries them (after simple-markdown, which Discord uses).
 * Every pattern is sticky: it must match exactly at the current position.
 */
const RULES: readonly Rule[] = [
  { pattern: /\\([^0-9A-Za-z\s])/y, render: (m) => escapeHtml(m[1] ?? '') },
  {
    pattern: /```(?:([a-z0-9_+\-.#]+?)\n)?\n*([^\n][\s\S]*?)\n*```/iy,
    when: (_s, _i, state) => state.blocks,
    render: (m) => `<pre class="md-codeblock"><code>${escapeHtml(m[2] ?? '')}</code></pre>`,
  },
  {
    pattern: /(`+)([\s\S]*?[^`])\1(?!`)/y,
    render: (m) => `<code class="md-code">${escapeHtml((m[2] ?? '').trim())}</code>`,
  },
  {
    pattern: /<@!?([0-9]{17,20})>/y,
    render: (m, state) => {
      const name = state.ctx.directory.userName(m[1] ?? '');
      return `<span class="mention user">@${escapeHtml(name ?? 'unknown-user')}</span>`;
    },
  },
  {
    pattern: /<@&([0-9]{17,20})>/y,
    render: (m, state) => {
      const role = state.ctx.directory.role(m[1] ?? '');
      if (!role) return '<span class="mention role">@deleted-role</span>';
      // A role without a colour (0) is shown like a user mention, as Discord does.
      const colour = role.colour === 0 ? undefined : cssColour(role.colour);
      const style = colour === undefined ? '' : ` style="--role-colour: ${colour}"`;
      return `<span class="mention role${colour === undefined ? '' : ' coloured'}"${style}>@${escapeHtml(role.name)}</span>`;
    },
  },
  {
    pattern: /<#([0-9]{17,20})>/y,
    render: (m, state) => {
      const name = state.ctx.directory.channelName(m[1] ?? '');
      return `<span class="mention channel">#${escapeHtml(name ?? 'unknown')}</span>`;
    },
  },
  {
    pattern: /<t:(-?[0-9]{1,14})(?::([tTdDfFR]))?>/y,
    render: (m, state) => {
      const ms = Number(m[1]) * 1000;
      const style = m[2] ?? 'f';
      if (!Number.isSafeInteger(ms) || Number.isNaN(new Date(ms).getTime()) || !isTimestampStyle(style))
        return escapeHtml(m[0]);
      const text = formatTimestamp(ms, style, state.ctx.now, state.ctx.timeZone);
      const iso = new Date(ms).toISOString();
      return `<time class="md-timestamp" datetime="${iso}" data-ms="${ms}" data-style="${style}">${escapeHtml(text)}</time>`;
    },
  },
  { pattern: /@(everyone|here)\b/y, render: (m) => `<span class="mention everyone">@${escapeHtml(m[1] ?? '')}</span>` },
  {
    pattern: /\[((?:\\[\s\S]|[^\\\]])+)\]\(\s*<?([^\s)>]+)>?\s*\)/y,
    when: (_s, _i, state) => state.links,
    render: (m, state) => {
      const href = safeHref(m[2]);
      // A masked link to anything but http(s) is shown as the text it is, never as a link.
      if (href === undefined) return escapeHtml(m[0]);
      return `${link(href)}${inner(m[1] ?? '', state, { links: false })}</a>`;
    },
  },
  {
    pattern: /<(https?:\/\/[^\s>]+)>/y,
    when: (_s, _i, state) => state.links,
    render: (m) => {
      const href = safeHref(m[1]);
      return href === undefined ? escapeHtml(m[0]) : `${link(href)}${escapeHtml(m[1] ?? '')}</a>`;
    },
  },
  {
    pattern: /https?:\/\/[^\s<]+[^<.,:;"')\]\s]/y,
    when: (_s, _i, state) => state.links,
    render: (m) => {
      const href = safeHref(m[0]);
      return href === undefined ? escapeHtml(m[0]) : `${link(href)}${escapeHtml(m[0])}</a>`;
    },
  },
  { pattern: /\*\*((?:\\[\s\S]|[^\\])+?)\*\*(?!\*)/y, render: wrap('strong', 'md-bold') },
  { pattern: /__((?:\\[\s\S]|[^\\])+?)__(?!_)/y, render: wrap('u', 'md-underline') },
  {
    pattern: /\*(?=\S)((?:\*\*|\\[\s\S]|\s+(?:\\[\s\S]|[^\s*\\]|\*\*)|[^\s*\\])+?)\*(?!\*)/y,
    render: wrap('em', 'md-italic'),
  },
  {
    pattern: /_((?:__|\\[\s\S]|[^\\_])+?)_(?![0-9A-Za-z])/y,
    // snake_case_names stay as they are: `_` opens italics only at the start of a word.
    when: (source, index) => index === 0 || !/[0-9A-Za-z]/.test(source[index - 1] ?? ''),
    render: wrap('em', 'md-italic'),
  },
  { pattern: /~~((?:\\[\s\S]|[^\\])+?)~~/y, render: wrap('s', 'md-strike') },
  { pattern: /\|\|((?:\\[\s\S]|[^\\])+?)\|\|/y, render: wrap('span', 'md-spoiler') },
  { pattern: /\n/y, render: () => '<br>' },
];

/** Plain text up to the next character that could start a rule; at least one character. */
const TEXT = /[\s\S]+?(?=[\\`*_~|<[@\n]|https?:\/\/|$)/y;

function link(href: string): string {
  return `<a class="md-link" href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">`;
}

function renderInline(source: string, state: State): string {
  if (state.depth > MAX_DEPTH) return escapeHtml(source).replace(/\n/g, '<br>');
  let html = '';
  let index = 0;
  outer: while (index < source.length) {
    for (const rule of RULES) {
      if (rule.when && !rule.when(source, index, state)) continue;
      rule.pattern.lastIndex = index;
      const match = rule.pattern.exec(source);
      if (!match || match[0].length === 0) continue;
      html += rule.render(match, state);
      index += match[0].length;
      continue outer;
    }
    TEXT.lastIndex = index;
    const text = TEXT.exec(source)?.[0] ?? source.slice(index, index + 1);
    html += escapeHtml(text);
    index += text.length;
  }
  return html;
}

/**
 * Discord-flavoured markdown to HTML: bold, italics, underline, strike-through, spoilers, inline code, code
 * blocks, links, mentions and timestamps, with backslash escapes. Every piece of text is HTML-escaped and
 * every link is http(s): whatever an embed holds, the result is inert markup.
 */
export function renderMarkdown(source: string, ctx: MarkdownContext, options: MarkdownOptions = {}): string {
  return renderInline(source, { ctx, links: options.links ?? true, blocks: options.blocks ?? true, depth: 0 });
}
