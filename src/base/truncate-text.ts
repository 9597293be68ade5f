/** Marks text that was cut, so a reader knows there was more. */
const ELLIPSIS = '…';

/**
 * Cuts `text` to at most `max` UTF-16 code units (the unit of every Discord length limit), ending with "…" when
 * anything was cut. Never splits a surrogate pair (an emoji or other astral character is kept whole or dropped
 * whole). The one truncation helper of the bot: embeds, replies, autocomplete names and quoted service text.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < ELLIPSIS.length) return '';
  let end = max - ELLIPSIS.length;
  const last = text.charCodeAt(end - 1);
  // The unit at end-1 is the first half of a pair whose second half would be cut off.
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}

/**
 * Joins whole lines, as many as fit `max` characters, then one line from `more(left)` saying how many were left
 * out (which always fits). A line is never cut: a half link or a half mention helps nobody.
 */
export function fitLines(
  lines: readonly string[],
  max: number,
  more: (left: number) => string = (left) => `… and ${left} more`,
): string {
  const whole = lines.join('\n');
  if (whole.length <= max) return whole;
  const kept: string[] = [];
  let length = 0;
  for (const [index, line] of lines.entries()) {
    const separator = kept.length > 0 ? 1 : 0;
    const left = lines.length - index - 1;
    const tail = left > 0 ? 1 + more(left).length : 0;
    if (length + separator + line.length + tail > max) {
      kept.push(more(lines.length - index));
      break;
    }
    kept.push(line);
    length += separator + line.length;
  }
  return kept.join('\n');
}
