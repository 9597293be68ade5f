import { FORMER_MEMBER } from '../../store/person-rows.js';

/** How a card or the history names the manager who gave or voided something: a mention, or "a former member". */
export function mentionManager(memberId: string): string {
  return memberId === FORMER_MEMBER ? FORMER_MEMBER : `<@${memberId}>`;
}
