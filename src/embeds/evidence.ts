import { fitLines } from '../base/truncate-text.js';
import { formatInlineCode, formatName, stringifyJson } from './format.js';
import { MAX_FIELD_VALUE_LENGTH } from './limits.js';

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
  const links = collectLinks(evidence);
  if (links && links.length > 0) return formatLinks(links);
  return formatInlineCode(stringifyJson(evidence), MAX_EVIDENCE_TEXT_LENGTH);
}

/** A link of the evidence, with the key it was under in an object (a label staff can read). */
interface EvidenceLink {
  label: string | undefined;
  href: string;
}

/**
 * The links of evidence that is made of links only: a list of URLs, an object whose values are URLs or lists
 * of URLs (nulls skipped). Anything else in it (text, numbers, deeper objects) makes it "other": undefined, and
 * it is shown as short code, since a list of links with the rest dropped would hide part of the evidence.
 */
function collectLinks(evidence: unknown): EvidenceLink[] | undefined {
  const links: EvidenceLink[] = [];
  const take = (value: unknown, label: string | undefined, depth: number): boolean => {
    if (value === null) return true;
    if (typeof value === 'string') {
      const href = toHttpLink(value);
      if (href) links.push({ label, href });
      return href !== undefined;
    }
    if (Array.isArray(value) && depth < 2) return value.every((item) => take(item, label, depth + 1));
    return false;
  };
  if (Array.isArray(evidence)) return take(evidence, undefined, 0) ? links : undefined;
  if (typeof evidence === 'object' && evidence !== null) {
    const entries = Object.entries(evidence as Record<string, unknown>);
    return entries.every(([key, value]) => take(value, key, 1)) ? links : undefined;
  }
  return undefined;
}

/**
 * One link a line (labelled by its key in an object), each whole, as many as fit the field, then "and N more".
 * The same address twice is shown once.
 */
function formatLinks(links: readonly EvidenceLink[]): string {
  const seen = new Set<string>();
  const unique = links.filter((link) => !seen.has(link.href) && seen.add(link.href));
  const lines = unique.map((link) =>
    link.label === undefined ? link.href : `${formatName(link.label, 40)}: ${link.href}`,
  );
  return fitLines(lines, MAX_FIELD_VALUE_LENGTH, (left) => `and ${left} more`);
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
