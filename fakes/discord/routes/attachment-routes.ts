/**
 * The CDN side of attachments: `GET /attachments/:id/:filename` serves the bytes a test attached.
 */
import { ApiErrors } from '../api-errors.js';
import type { AttachmentStore } from '../attachment-store.js';
import type { Route } from './router.js';

/** The attachment download route (no token: CDN URLs are signed by their query on Discord, open here). */
export function attachmentRoutes(attachments: AttachmentStore): Route[] {
  return [
    {
      method: 'GET',
      path: '/attachments/:attachmentId/:filename',
      auth: false,
      handle: ({ params }) => {
        const stored = attachments.get(params['attachmentId'] ?? '');
        if (!stored || stored.api.filename !== params['filename']) throw ApiErrors.notFound();
        return { status: 200, body: Buffer.from(stored.bytes) };
      },
    },
  ];
}
