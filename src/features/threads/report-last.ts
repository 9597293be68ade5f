import type { ThreadPart } from './session-log.js';

/**
 * Keeps the after-action report the thread's last message. When the log needs a message more after the report
 * was posted (cases told late), its first new part takes the report's message (edited into that part next) and
 * the report, left without a message, is posted again below: Discord cannot put a message before another.
 *
 * @param posted each part's message in the thread (`log:0`, …, `report`)
 * @param drawn the parts as drawn now, in order
 * @returns the parts to write down before anything is sent (so a crash in between leaves the same plan), or
 *   undefined when nothing moves
 */
export function partsWithReportLast(
  posted: Readonly<Record<string, string>>,
  drawn: readonly ThreadPart[],
): Record<string, string> | undefined {
  const { report: reportMessage, ...others } = posted;
  if (reportMessage === undefined) return undefined;
  const firstNew = drawn.find(({ part }) => part !== 'report' && posted[part] === undefined);
  return firstNew === undefined ? undefined : { ...others, [firstNew.part]: reportMessage };
}
