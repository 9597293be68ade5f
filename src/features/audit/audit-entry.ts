import type { DispatchedAction } from '../../discord/interaction-dispatch.js';
import { describeButton, describeCommand, describeDialog } from './describe-action.js';
import type { AuditEntry } from './store/audit-log.js';

/** The audit log's line for an answered interaction: who, what (never a typed value of a dialog), how, when. */
export function toAuditEntry(action: DispatchedAction, at: number): AuditEntry {
  const { interaction } = action;
  const what = interaction.isChatInputCommand()
    ? describeCommand(interaction)
    : interaction.isModalSubmit()
      ? describeDialog(action.command)
      : describeButton(interaction, action.command);
  return {
    guildId: action.guildId,
    userId: interaction.user.id,
    action: what,
    result: action.result,
    detail: action.detail,
    at,
    ...(action.lookup ? { kind: 'lookup' as const } : {}),
  };
}
