import type { APIAttachment } from 'discord.js';

import { ApiErrors } from '../api-errors.js';
import type { RouteDeps } from './route-deps.js';
import type { UploadedFile } from './router.js';

/**
 * The files a message has after this request: each entry of the body's `attachments` is a file uploaded with it
 * (`id` is its index, `files[id]`) or one the message already has (its id); without `attachments`, every uploaded
 * file. Undefined: the request says nothing of files (an edit keeps them). A file over `limit` (the interaction's
 * `attachment_size_limit`, or a channel's) is refused as Discord does, 413. Each file is stored, served at its URL.
 */
export function attachmentsOf(
  deps: Pick<RouteDeps, 'attachments'>,
  body: unknown,
  files: readonly UploadedFile[],
  limit: number | undefined,
): APIAttachment[] | undefined {
  const listed = (body as { attachments?: unknown } | undefined)?.attachments;
  if (files.length === 0 && !Array.isArray(listed)) return undefined;
  if (limit !== undefined && files.some((file) => file.bytes.length > limit)) throw ApiErrors.requestTooLarge();
  const uploaded = new Map(
    files.map((file, index) => [/^files\[(\d+)\]$/.exec(file.field)?.[1] ?? String(index), file]),
  );
  const entries: Array<{ id?: unknown; filename?: unknown }> = Array.isArray(listed)
    ? (listed as Array<{ id?: unknown; filename?: unknown }>)
    : [...uploaded.keys()].map((id) => ({ id }));
  return entries.map((entry) => {
    const id = String(entry.id);
    const file = uploaded.get(id);
    if (file) {
      const filename = typeof entry.filename === 'string' ? entry.filename : file.filename;
      return deps.attachments.add({ filename, bytes: file.bytes, contentType: file.contentType });
    }
    const kept = deps.attachments.get(id);
    if (!kept) throw ApiErrors.invalidFormBody([`/attachments: unknown attachment ${id}`]);
    return kept.api;
  });
}
