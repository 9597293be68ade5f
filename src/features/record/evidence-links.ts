/** The most items of a case's evidence the pack lists one by one; the whole evidence is shown as JSON beside them. */
const MAX_ITEMS = 200;
/** How deep into the evidence's lists and objects items are looked for. */
const MAX_DEPTH = 6;

/**
 * One piece of a case's evidence, as the service gave it: a text (usually a link), with the keys and places it
 * was under (`clips[2]`), and the address it may be opened at: set only for an http(s) URL, never for anything
 * else (a `javascript:` or `data:` text is shown, never made a link). The bot itself never opens it.
 */
export interface EvidenceItem {
  /** Where it was in the evidence (`clip`, `[1]`, `clips[0]`); empty for evidence that is one text. */
  path: string;
  /** The text exactly as given. */
  text: string;
  /** Its http(s) address, normalised by the URL parser; undefined when it is not one. */
  href: string | undefined;
}

/** A case's evidence read back from the record: its value, its items, and whether the record cut it. */
export interface ReadEvidence {
  /** The value as given (JSON), or undefined when the record had to cut it (then `text` is all there is). */
  value: unknown;
  /** The JSON text as the record keeps it. */
  text: string;
  items: EvidenceItem[];
  /** More items than {@link MAX_ITEMS} (the JSON shows them all). */
  moreItems: boolean;
}

/**
 * The evidence of a case from its JSON text (record-update.ts's evidenceTextOf): every text in it, at any depth,
 * as an item. Evidence the record cut (longer than it keeps) is no longer JSON: its http(s) addresses are found
 * in the text as it is.
 */
export function readEvidence(text: string): ReadEvidence {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const items = [...text.matchAll(/https?:\/\/[^\s"\\]+/gi)].map((match) => itemOf('', match[0]));
    return { value: undefined, text, items: items.slice(0, MAX_ITEMS), moreItems: items.length > MAX_ITEMS };
  }
  const items: EvidenceItem[] = [];
  let more = false;
  const walk = (node: unknown, path: string, depth: number): void => {
    if (items.length >= MAX_ITEMS) {
      more ||= typeof node === 'string' || (typeof node === 'object' && node !== null);
      return;
    }
    if (typeof node === 'string') items.push(itemOf(path, node));
    else if (typeof node === 'number' || typeof node === 'boolean') items.push(itemOf(path, String(node)));
    else if (depth >= MAX_DEPTH || node === null || typeof node !== 'object') return;
    else if (Array.isArray(node)) node.forEach((child, index) => walk(child, `${path}[${index}]`, depth + 1));
    else for (const [key, child] of Object.entries(node)) walk(child, path === '' ? key : `${path}.${key}`, depth + 1);
  };
  walk(value, '', 0);
  return { value, text, items, moreItems: more };
}

function itemOf(path: string, text: string): EvidenceItem {
  return { path, text, href: httpAddressOf(text) };
}

/**
 * The http(s) address a text is, or undefined: only a text that is an absolute http or https URL as a whole
 * (spaces around it aside). Whatever else it says (`javascript:`, `data:`, `file:`, a relative path) is no link.
 */
export function httpAddressOf(text: string): string | undefined {
  const candidate = text.trim();
  if (!/^https?:\/\//i.test(candidate)) return undefined;
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
