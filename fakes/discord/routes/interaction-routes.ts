/**
 * Interaction routes: the initial callback and the interaction webhook (edit, fetch, delete the original
 * response; follow-ups). Discord takes no bot token on these; the interaction token is the credential.
 */
import type { APIAttachment } from 'discord.js';

import type { MessageBody } from '../message-store.js';
import type { RouteDeps } from './route-deps.js';
import type { Route, UploadedFile } from './router.js';
import { attachmentsOf } from './uploaded-files.js';

function isTrue(value: string | null): boolean {
  return value === 'true' || value === '1';
}

/** The files of a message answering an interaction, within the interaction's `attachment_size_limit`. */
function resolveAttachments(
  deps: RouteDeps,
  token: string,
  body: unknown,
  files: readonly UploadedFile[],
): APIAttachment[] | undefined {
  return attachmentsOf(deps, body, files, deps.interactions.uploadLimit(token));
}

/** The interaction callback and interaction-webhook routes. */
export function interactionRoutes(deps: RouteDeps): Route[] {
  const changed = <T>(value: T): T => {
    deps.onChange();
    return value;
  };
  return [
    {
      method: 'POST',
      path: '/interactions/:interactionId/:token/callback',
      auth: false,
      uploads: true,
      handle: ({ params, query, body, files }) => {
        const token = params['token'] ?? '';
        const data = (body as { data?: unknown } | undefined)?.data;
        const answer = deps.interactions.callback(
          params['interactionId'] ?? '',
          token,
          body as { type: number; data?: unknown },
          resolveAttachments(deps, token, data, files),
        );
        // discord.js asks `with_response=false` unless told otherwise; Discord then answers 204.
        return changed(isTrue(query.get('with_response')) ? { status: 200, body: answer } : { status: 204 });
      },
    },
    {
      method: 'PATCH',
      path: '/webhooks/:applicationId/:token/messages/@original',
      auth: false,
      uploads: true,
      handle: ({ params, body, files }) => {
        const token = params['token'] ?? '';
        const edited = deps.interactions.editOriginal(
          params['applicationId'] ?? '',
          token,
          body as MessageBody,
          resolveAttachments(deps, token, body, files),
        );
        return changed({ status: 200, body: edited });
      },
    },
    {
      method: 'GET',
      path: '/webhooks/:applicationId/:token/messages/@original',
      auth: false,
      handle: ({ params }) => ({
        status: 200,
        body: deps.interactions.getOriginal(params['applicationId'] ?? '', params['token'] ?? ''),
      }),
    },
    {
      method: 'DELETE',
      path: '/webhooks/:applicationId/:token/messages/@original',
      auth: false,
      handle: ({ params }) => {
        deps.interactions.deleteOriginal(params['applicationId'] ?? '', params['token'] ?? '');
        return changed({ status: 204 });
      },
    },
    {
      method: 'POST',
      path: '/webhooks/:applicationId/:token',
      auth: false,
      uploads: true,
      handle: ({ params, query, body, files }) => {
        const token = params['token'] ?? '';
        const message = deps.interactions.followUp(
          params['applicationId'] ?? '',
          token,
          body as MessageBody & Record<string, unknown>,
          resolveAttachments(deps, token, body, files),
        );
        // Without `wait=true` Discord does not return the message.
        return changed(isTrue(query.get('wait')) ? { status: 200, body: message } : { status: 204 });
      },
    },
  ];
}
