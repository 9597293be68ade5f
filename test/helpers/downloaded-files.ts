import type { APIMessage } from 'discord.js';

/** A file a message carries, as Discord's CDN (the fake's attachment URL) serves it. */
export interface DownloadedFile {
  readonly name: string;
  readonly size: number;
  readonly contentType: string | undefined;
  readonly bytes: Buffer;
}

/** Every file of the message, in order, downloaded from its URL (a user sees what the URL serves). */
export async function downloadFiles(message: { api: Pick<APIMessage, 'attachments'> } | undefined) {
  const files: DownloadedFile[] = [];
  for (const attachment of message?.api.attachments ?? []) {
    const response = await fetch(attachment.url);
    if (response.status !== 200) throw new Error(`${attachment.url} answered ${response.status}`);
    files.push({
      name: attachment.filename,
      size: attachment.size,
      contentType: attachment.content_type,
      bytes: Buffer.from(await response.arrayBuffer()),
    });
  }
  return files;
}
