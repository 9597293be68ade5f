/**
 * Validates request bodies the way Discord would, for the routes this bot uses: against Discord's own
 * published schema (extracted into `schema/discord-requests.json` by `scripts/extract-discord-schema.ts`)
 * plus the message rules that schema cannot express (see `message-limits.ts`).
 */
import { compileDiscordRoutes, type CompiledRoute } from './discord-schema.js';
import { checkMessageLimits } from './message-limits.js';
import { formatSchemaErrors } from './schema-errors.js';

let compiled: CompiledRoute[] | undefined;
function routes(): CompiledRoute[] {
  // Loading the schema and setting up ajv takes a moment; do it once, on first use.
  compiled ??= compileDiscordRoutes();
  return compiled;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Strips the query, `/api` and the version and decodes each segment (discord.js sends `@original` as
 * `%40original`): `/api/v10/webhooks/1/t/messages/%40original?x=1` -> `/webhooks/1/t/messages/@original`.
 */
export function normaliseDiscordPath(path: string): string {
  const withoutQuery = path.split('?')[0] ?? '';
  const stripped = withoutQuery.replace(/^\/api(?=\/|$)/, '').replace(/^\/v\d+(?=\/|$)/, '') || '/';
  return stripped.split('/').map(decodeSegment).join('/');
}

function findRoute(method: string, path: string): CompiledRoute | undefined {
  const concrete = normaliseDiscordPath(path);
  const upper = method.toUpperCase();
  return routes().find((route) => route.method === upper && route.pattern.test(concrete));
}

/**
 * The OpenAPI template a concrete request matches, e.g. `/channels/{channel_id}/messages`, or undefined when
 * the validator has no schema for it.
 */
export function matchDiscordRoute(method: string, path: string): string | undefined {
  return findRoute(method, path)?.path;
}

function prefix(problems: string[], at: string): string[] {
  return problems.map((problem) => `${at}${problem}`);
}

function messageRules(route: CompiledRoute, body: unknown): string[] {
  switch (route.operationId) {
    case 'create_message':
    case 'execute_webhook':
      return checkMessageLimits(body, { requireContent: true });
    case 'update_message':
    case 'update_original_webhook_message':
      return checkMessageLimits(body, { requireContent: false });
    case 'create_interaction_response': {
      if (typeof body !== 'object' || body === null) return [];
      const { type, data } = body as { type?: unknown; data?: unknown };
      // 4 replies with a new message, 7 replaces the component's message; other types carry no message.
      if (type === 4) return prefix(checkMessageLimits(data, { requireContent: true }), '/data');
      if (type === 7) return prefix(checkMessageLimits(data, { requireContent: false }), '/data');
      return [];
    }
    default:
      return [];
  }
}

function placeOf(problem: string): string {
  return problem.slice(0, problem.indexOf(':'));
}

/**
 * Checks one request body the way Discord would for the routes this bot uses.
 *
 * @param method - HTTP method, any case.
 * @param path - Concrete path, with or without `/api/v10` and query, e.g. `/api/v10/channels/123/messages`.
 * @param body - The parsed JSON body.
 * @returns Readable problems such as `/embeds/0/title: must NOT have more than 256 characters`; empty when the
 *   body is valid, and for routes this validator has no schema for.
 */
export function validateDiscordRequest(method: string, path: string, body: unknown): string[] {
  const route = findRoute(method, path);
  if (!route) return [];
  if (!route.takesBody) return body === undefined ? [] : ['/: this route takes no request body'];
  const validate = route.validator();
  const schemaProblems = validate(body) ? [] : formatSchemaErrors(validate.errors ?? []);
  // Where the schema already flags a place (e.g. interaction content over 2000), the rule would only repeat it.
  const flagged = new Set(schemaProblems.map(placeOf));
  const ruleProblems = messageRules(route, body).filter((problem) => !flagged.has(placeOf(problem)));
  return [...schemaProblems, ...ruleProblems];
}

/** Thrown by {@link assertValidCreateMessage}; `problems` lists what Discord would refuse. */
export class InvalidDiscordRequestError extends Error {
  override readonly name = 'InvalidDiscordRequestError';

  constructor(readonly problems: readonly string[]) {
    super(`Discord would refuse this message:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * Throws {@link InvalidDiscordRequestError} unless `body` is a valid `POST /channels/{id}/messages` body.
 * Handy for property tests of embed renderers.
 */
export function assertValidCreateMessage(body: unknown): void {
  const problems = validateDiscordRequest('POST', '/channels/0/messages', body);
  if (problems.length > 0) throw new InvalidDiscordRequestError(problems);
}
