/**
 * Interaction routes: the initial callback and the interaction webhook (edit, fetch, delete the original
 * response; follow-ups). Discord takes no bot token on these; the interaction token is the credential.
 */
import type { MessageBody } from '../message-store.js';
import type { RouteDeps } from './route-deps.js';
import type { Route } from './router.js';

function isTrue(value: string | null): boolean {
  return value === 'true' || value === '1';
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
      handle: ({ params, query, body }) => {
        const answer = deps.interactions.callback(
          params['interactionId'] ?? '',
          params['token'] ?? '',
          body as { type: number; data?: unknown },
        );
        // discord.js asks `with_response=false` unless told otherwise; Discord then answers 204.
        return changed(isTrue(query.get('with_response')) ? { status: 200, body: answer } : { status: 204 });
      },
    },
    {
      method: 'PATCH',
      path: '/webhooks/:applicationId/:token/messages/@original',
      auth: false,
      handle: ({ params, body }) => {
        const edited = deps.interactions.editOriginal(
          params['applicationId'] ?? '',
          params['token'] ?? '',
          body as MessageBody,
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
      handle: ({ params, query, body }) => {
        const message = deps.interactions.followUp(
          params['applicationId'] ?? '',
          params['token'] ?? '',
          body as MessageBody & Record<string, unknown>,
        );
        // Without `wait=true` Discord does not return the message.
        return changed(isTrue(query.get('wait')) ? { status: 200, body: message } : { status: 204 });
      },
    },
  ];
}
