import type { ChatInputCommandInteraction } from 'discord.js';

import { deferEphemeral, replyEphemeral } from '../../../../discord/reply.js';
import { formatInlineCode } from '../../../../embeds/format.js';
import { formatDuration } from '../../../../embeds/time.js';
import { UPLOAD_LIFETIME_MS } from '../../../../upstream/developer-schemas.js';
import { requireReleaseManager } from '../../release-managers.js';
import type { AppCommandDeps } from '../app.js';
import { askService, formatBytes } from './shared.js';

/** /app uploads: the uploads no version uses yet, with the time left before the service deletes them (24 h). */
export async function listUploads(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
): Promise<void> {
  const guild = await ctx.appDocuments.readGuild(guildId);
  requireReleaseManager(interaction, guild);
  await deferEphemeral(interaction);
  const uploads = await askService(ctx, guild, 'list the uploads', (caller) => ctx.developer.listUploads(caller));
  if (uploads.length === 0) {
    await replyEphemeral(interaction, 'No unused uploads: every upload is part of a version, or none was made.');
    return;
  }
  const now = ctx.clock();
  const lines = uploads.map((upload) => {
    const deleteAt =
      upload.expiresAt ?? (upload.createdAt === undefined ? undefined : upload.createdAt + UPLOAD_LIFETIME_MS);
    const left =
      deleteAt === undefined
        ? 'deleted 24 h after upload'
        : `${formatDuration(Math.max(0, deleteAt - now) / 1000)} left (deleted <t:${Math.floor(deleteAt / 1000)}:R>)`;
    const size = upload.size === undefined ? '' : ` · ${formatBytes(upload.size)}`;
    return `• ${formatInlineCode(upload.name, 100)}${size} · ${left}`;
  });
  await replyEphemeral(
    interaction,
    [
      `**Unused uploads** (${uploads.length}); the service deletes an upload no version uses after 24 h:`,
      ...lines,
    ].join('\n'),
  );
}
