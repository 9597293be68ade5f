import type { RecordedRequest } from '../../fakes/discord/index.js';

/** `<@&id>` and `<@id>` / `<@!id>` in a message's content. */
const ROLE = /<@&(\d+)>/g;
const USER = /<@!?(\d+)>/g;

/**
 * The messages the bot sent or edited (as the fake Discord received them) whose allowed_mentions name a role or a
 * user their content does not: each is one line `METHOD path: allowed … but the content names …`. Empty when every
 * message allows exactly whom it pings.
 */
export function mentionsAllowedUnnamed(requests: readonly RecordedRequest[]): string[] {
  const found: string[] = [];
  for (const request of requests) {
    if (!['POST', 'PATCH'].includes(request.method) || !/\/messages(\/\d+)?$/.test(request.path)) continue;
    const body = request.body as { content?: string; allowed_mentions?: { roles?: string[]; users?: string[] } };
    const allowed = body.allowed_mentions;
    if (!allowed) continue;
    const content = body.content ?? '';
    const named = (pattern: RegExp) => new Set([...content.matchAll(pattern)].map((match) => match[1]));
    const roles = (allowed.roles ?? []).filter((id) => !named(ROLE).has(id));
    const users = (allowed.users ?? []).filter((id) => !named(USER).has(id));
    if (roles.length + users.length > 0) {
      found.push(`${request.method} ${request.path}: allows ${[...roles, ...users].join(', ')}, content ${content}`);
    }
  }
  return found;
}
