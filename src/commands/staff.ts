import { InteractionContextType, SlashCommandBuilder } from 'discord.js';

import type { Command } from '../discord/command.js';
import { defineStaffActivity, showStaffActivity, type StaffActivityDeps } from '../features/leave/index.js';
import {
  chosenPeriod,
  periodOption,
  periodRange,
  showStaffRecord,
  STAFF_RECORD_SUBCOMMANDS,
  type StaffCommandDeps,
} from '../features/record/index.js';
import {
  runStaffAction,
  STAFF_ACTION_NAMES,
  STAFF_ACTION_SUBCOMMANDS,
  type StaffActionCommandDeps,
} from '../features/staff-actions/index.js';

/** What /staff is given: what each feature's subcommands take, no more. */
export type SharedStaffCommandDeps = StaffCommandDeps & StaffActionCommandDeps & StaffActivityDeps;

/** The subcommands that only read: not admin actions, so the audit log leaves them out. */
const READ_ONLY = new Set(['stats', 'response', 'activity', 'history']);

const data = new SlashCommandBuilder()
  .setName('staff')
  .setDescription("The staff's work in this server's record, their discipline and their ranks")
  .setContexts(InteractionContextType.Guild);
// Each feature's subcommands, in the order Discord lists them: the record's, leave's (activity, with the record's
// periods), then the staff actions'.
for (const sub of [...STAFF_RECORD_SUBCOMMANDS, defineStaffActivity(periodOption), ...STAFF_ACTION_SUBCOMMANDS]) {
  data.addSubcommand(sub);
}

/**
 * /staff: shared. stats and response are the community record's; activity leave's; infraction, infraction-void, history, promote,
 * demote, ranks and setup the staff actions'. Each checks who may use it (the record's readers; the staff-manager
 * role; admins).
 */
export const staffCommand: Command<SharedStaffCommandDeps> = {
  data,

  async execute(interaction, ctx) {
    const subcommand = interaction.options.getSubcommand(true);
    if (STAFF_ACTION_NAMES.has(subcommand)) return runStaffAction(interaction, ctx, subcommand);
    if (subcommand === 'activity') {
      const range = periodRange(chosenPeriod(interaction.options.getString('period')), ctx.clock());
      return showStaffActivity(interaction, ctx, range);
    }
    return showStaffRecord(interaction, ctx);
  },

  readOnly: (subcommand) => subcommand !== undefined && READ_ONLY.has(subcommand),
};
