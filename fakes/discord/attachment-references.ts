/**
 * What Discord would not show of a message sent with files: an embed's `attachment://name` naming no file of the
 * request draws nothing. The message is the body itself (webhook messages) or an interaction callback's `data`.
 */
import type { UploadedFile } from './routes/router.js';

interface EmbedJson {
  readonly [part: string]: { url?: unknown; icon_url?: unknown } | undefined;
}

export function unresolvedAttachmentReferences(body: unknown, files: readonly UploadedFile[]): string[] {
  if (files.length === 0 || typeof body !== 'object' || body === null) return [];
  const callback = body as { type?: unknown; data?: unknown };
  const message = (typeof callback.type === 'number' ? callback.data : body) as { embeds?: unknown } | undefined;
  const embeds = Array.isArray(message?.embeds) ? (message.embeds as EmbedJson[]) : [];
  const problems: string[] = [];
  for (const [index, embed] of embeds.entries()) {
    for (const [key, part] of Object.entries(embed)) {
      for (const url of [part?.url, part?.icon_url]) {
        if (typeof url !== 'string' || !url.startsWith('attachment://')) continue;
        const name = url.slice('attachment://'.length);
        if (!files.some((file) => file.filename === name)) {
          problems.push(`/embeds/${index}/${key}: ${url} names no file of this request`);
        }
      }
    }
  }
  return problems;
}
