import { formatInlineCode, stringifyJson } from './format.js';

/** Longer URLs are shown as code: cut by the field limit, a link would point somewhere else. */
const MAX_LINK_LENGTH = 512;
/** Evidence that is not a link is a hint for staff to look it up, not a document: keep it short. */
const MAX_EVIDENCE_TEXT_LENGTH = 200;

/**
 * A case's evidence, whose shape the service does not document: an http(s) URL as a bare link (the full
 * address stays visible, unlike a masked link, so staff see where it goes), anything else as inline code,
 * objects and arrays as JSON.
 */
export function formatEvidence(evidence: unknown): string {
  if (typeof evidence === 'string') return toHttpLink(evidence) ?? formatInlineCode(evidence, MAX_EVIDENCE_TEXT_LENGTH);
  return formatInlineCode(stringifyJson(evidence), MAX_EVIDENCE_TEXT_LENGTH);
}

function toHttpLink(text: string): string | undefined {
  const candidate = text.trim();
  if (!/^https?:\/\//i.test(candidate)) return undefined;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  // URL already escapes spaces and angle brackets; parentheses would end Discord's link detection early.
  const href = url.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
  return href.length <= MAX_LINK_LENGTH ? href : undefined;
}
