import type { ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { replyEphemeral } from '../../../../discord/reply.js';
import type { AppCommandDeps } from '../app.js';

/** /app managers [role]: who may send and withdraw versions besides Manage Server; without a role, admins only. */
export async function setManagers(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
): Promise<void> {
  const role = interaction.options.getRole('role');
  if (role?.id === guildId) throw new UserFacingError('Choose a role other than @everyone.');
  await ctx.appDocuments.updateGuild(guildId, (guild) => ({ ...guild, managersRoleId: role?.id ?? null }));
  await replyEphemeral(
    interaction,
    role
      ? `Members with <@&${role.id}> may now send versions (/app submit, /app new) and withdraw them (/app withdraw), as may Manage Server.`
      : 'Only members with Manage Server may send and withdraw versions now.',
  );
}
