/** The only way text reaches the preview's HTML: every character that could open markup or end an attribute is escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => HTML_ESCAPES[char] ?? char);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * An address that may go into `href`: http(s) only, so embed content can never produce a `javascript:` or
 * `data:` link; undefined for anything else. The result still has to be escaped (it is an attribute value).
 */
export function safeHref(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
}

/** An embed or role colour (0xRRGGBB) as CSS `#rrggbb`; anything that is not such a number gives undefined. */
export function cssColour(colour: number | null | undefined): string | undefined {
  if (typeof colour !== 'number' || !Number.isInteger(colour) || colour < 0 || colour > 0xffffff) return undefined;
  return `#${colour.toString(16).padStart(6, '0')}`;
}
