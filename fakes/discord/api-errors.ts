/**
 * Discord's JSON error answers (`{ "message", "code" }`) that the fake's routes give, as a throwable.
 */

/** Thrown inside the fake's route handlers; the server answers it as Discord would. */
export class DiscordApiFault extends Error {
  override readonly name = 'DiscordApiFault';

  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }

  /** The JSON body Discord sends with this error. */
  toBody(): Record<string, unknown> {
    return { message: this.message, code: this.code, ...this.extra };
  }
}

/** Discord's errors, by name, with their real codes and messages. */
export const ApiErrors = {
  unauthorized: () => new DiscordApiFault(401, 0, '401: Unauthorized'),
  unknownChannel: () => new DiscordApiFault(404, 10003, 'Unknown Channel'),
  unknownGuild: () => new DiscordApiFault(404, 10004, 'Unknown Guild'),
  unknownMessage: () => new DiscordApiFault(404, 10008, 'Unknown Message'),
  unknownMember: () => new DiscordApiFault(404, 10007, 'Unknown Member'),
  unknownRole: () => new DiscordApiFault(404, 10011, 'Unknown Role'),
  unknownWebhook: () => new DiscordApiFault(404, 10015, 'Unknown Webhook'),
  unknownInteraction: () => new DiscordApiFault(404, 10062, 'Unknown interaction'),
  missingAccess: () => new DiscordApiFault(403, 50001, 'Missing Access'),
  missingPermissions: () => new DiscordApiFault(403, 50013, 'Missing Permissions'),
  emptyMessage: () => new DiscordApiFault(400, 50006, 'Cannot send an empty message'),
  threadAlreadyCreated: () => new DiscordApiFault(400, 160004, 'A thread has already been created for this message'),
  cannotReplyWithoutHistory: () =>
    new DiscordApiFault(403, 160002, 'Cannot reply without permission to read message history'),
  alreadyAcknowledged: () => new DiscordApiFault(400, 40060, 'Interaction has already been acknowledged.'),
  invalidJson: () => new DiscordApiFault(400, 50109, 'The request body contains invalid JSON.'),
  invalidFormBody: (problems: readonly string[]) =>
    new DiscordApiFault(400, 50035, 'Invalid Form Body', { errors: problemsToErrors(problems) }),
  notFound: () => new DiscordApiFault(404, 0, '404: Not Found'),
  requestTooLarge: () => new DiscordApiFault(413, 40005, 'Request entity too large'),
} as const;

/**
 * Discord nests form errors by path (`{ embeds: { 0: { title: { _errors: [...] } } } }`); the fake builds the
 * same shape from the validator's `/embeds/0/title: message` lines.
 */
function problemsToErrors(problems: readonly string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const problem of problems) {
    const split = problem.indexOf(': ');
    const path = split < 0 ? '/' : problem.slice(0, split);
    const message = split < 0 ? problem : problem.slice(split + 2);
    let node = root;
    for (const segment of path.split('/').filter(Boolean)) {
      const child = node[segment];
      node[segment] = typeof child === 'object' && child !== null ? child : {};
      node = node[segment] as Record<string, unknown>;
    }
    const errors = (node['_errors'] as unknown[] | undefined) ?? [];
    errors.push({ code: 'BASE_TYPE_INVALID', message });
    node['_errors'] = errors;
  }
  return root;
}
